import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** How the command-line entry points treat a person who mistypes: usage and exit 1, never a stack. */
const root = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(root, 'packages/examples/bin/agentchart.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'agentchart-manners-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Outcome> {
  const env = { ...process.env, npm_lifecycle_event: undefined, INIT_CWD: undefined, ...options.env };
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: options.cwd ?? root, env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const agentchart = (args: string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }) => run([cli, ...args], options);
const tsx = (script: string, args: string[], env?: NodeJS.ProcessEnv) => run(['--import', 'tsx', join(root, script), ...args], { env });

const USAGE_LINES = {
  diagram: 'Usage: agentchart diagram <file|example> [--format mermaid|svg|json] [--machine KEY] [--out PATH]',
  trace: 'Usage: agentchart trace <trace.ndjson> [--verbose]',
  record: 'Usage: agentchart record <example|script> [--out FILE]',
  view: 'Usage: agentchart view <trace.ndjson|example> [--port N] [--speed N] [--now]',
};

describe('agentchart CLI manners', () => {
  it('prints the usage and exits 1 on an unknown flag, without a stack trace', async () => {
    const outcome = await agentchart(['diagram', 'research-rules', '--colour', 'red']);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(/^agentchart: Unknown option '--colour'\./);
    expect(outcome.stderr).toContain(USAGE_LINES.diagram);
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
    expect(outcome.stderr).not.toContain('ERR_PARSE_ARGS');

    const first = await agentchart(['--colour']);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^agentchart: Unknown option '--colour'\.\n\nUsage:\n {2}agentchart diagram/);
  });

  it.each(Object.entries(USAGE_LINES))('answers --help on %s with its usage, exit 0', async (command, line) => {
    const outcome = await agentchart([command, '--help']);
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(outcome.stdout.split('\n')[0]).toBe(line);
  });

  it('exits 1 with the usage on an unknown command or a missing target', async () => {
    const unknown = await agentchart(['draw', 'x']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^agentchart: Unknown command "draw"\.\n\nUsage:/);
    const missing = await agentchart(['trace']);
    expect(missing.code).toBe(1);
    expect(missing.stderr.startsWith(`agentchart: agentchart trace needs a file or an example name.\n\n${USAGE_LINES.trace}\n\nExamples: `)).toBe(
      true,
    );
  });

  it("resolves a relative path from the caller's directory, also when pnpm runs it from the workspace root", async () => {
    cpSync(join(root, 'test/fixtures/rules/research.letta.json'), join(scratch, 'rules.json'));
    const direct = await agentchart(['diagram', 'rules.json'], { cwd: scratch });
    expect(direct.code).toBe(0);
    expect(direct.stdout.startsWith('stateDiagram-v2\n')).toBe(true);
    // `npx pnpm@12.4.2 agentchart …` runs at the root and names the caller's directory in INIT_CWD.
    const viaPnpm = await agentchart(['diagram', 'rules.json'], { cwd: root, env: { npm_lifecycle_event: 'agentchart', INIT_CWD: scratch } });
    expect(viaPnpm).toEqual(direct);
  });
});

describe('example and bench manners', () => {
  it('example: an unknown flag or name prints the usage and exits 1; --help exits 0', async () => {
    const flag = await tsx('packages/examples/src/runExample.ts', ['--fast']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toMatch(/^example: unknown argument "--fast"\.\n\nUsage: npx pnpm@12\.4\.2 example <name>\nExamples: .*rule-init/);
    const name = await tsx('packages/examples/src/runExample.ts', ['rule-nope']);
    expect(name.code).toBe(1);
    expect(name.stderr).toMatch(/^No example named "rule-nope"\./);
    const help = await tsx('packages/examples/src/runExample.ts', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npx pnpm@12\.4\.2 example <name>\n/);
  });

  it('example: exits non-zero when its model cannot be reached', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => resolve(free));
      });
    });
    const outcome = await tsx('packages/examples/src/runExample.ts', ['reliable-tool'], {
      OLLAMA_MODEL: 'qwen3:8b',
      OLLAMA_HOST: `http://127.0.0.1:${port}`,
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toContain(`Cannot reach Ollama at http://127.0.0.1:${port} (connection refused).`);
  });

  it('bench: an unknown benchmark exits 1 with the list', async () => {
    const outcome = await tsx('bench/run.ts', ['nope']);
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr).toMatch(
      /^bench: no benchmark named "nope"\.\n\nUsage: npx pnpm@12\.4\.2 bench \[<name> …\].*\nBenchmarks: .*agentLoop.*toolRules/,
    );
  });
});
