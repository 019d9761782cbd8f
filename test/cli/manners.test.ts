import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MissingPackageError } from '../../packages/cli/src/cliErrors.js';
import { loadOptional } from '../../packages/cli/src/loadOptional.js';

/** How the command-line entry points treat a person who mistypes: one line and exit 2, never a stack; --help everywhere. */
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
  diagram: 'Usage: agentchart diagram <file|script> [--format mermaid|svg|json] [--machine KEY] [--out PATH]',
  trace: 'Usage: agentchart trace <trace.ndjson> [--verbose]',
  record: 'Usage: agentchart record <script> [--out FILE]',
  view: 'Usage: agentchart view <trace.ndjson|script> [--port N] [--speed N] [--now]',
  'check-model': 'Usage:',
  mcp: 'Usage: agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]',
  'mcp serve': 'Usage: agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]',
  worker:
    'Usage: agentchart worker --module ./chats.ts [--executor ID] [--concurrency N] [--global-concurrency N] [--take-over-after MS] [--queue-polling MS]',
  enqueue: 'Usage: agentchart enqueue <chat> <task> [--id CHAT_ID]',
  status: 'Usage: agentchart status <chatId> [--json]',
  events: 'Usage: agentchart events <chatId>',
  approve: 'Usage: agentchart approve <chatId> <callId> [--wait N]',
  reject: 'Usage: agentchart reject <chatId> <callId> [--reason TEXT] [--wait N]',
  say: 'Usage: agentchart say <chatId> <text> [--as NAME] [--wait N]',
  select: 'Usage: agentchart select <chatId> <speaker> [--wait N]',
  'record-result': 'Usage: agentchart record-result <chatId> <callId> <json> [--wait N]',
  recover: 'Usage: agentchart recover --executor ID',
};

describe('agentchart CLI manners', () => {
  it('answers an unknown option with one line naming the nearest valid option, exit 2, no stack and no internal code', async () => {
    expect(await agentchart(['diagram', 'research-rules', '--fromat', 'svg'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentchart diagram: unknown option --fromat; did you mean --format? (agentchart diagram --help lists them)\n',
    });
    expect(await agentchart(['status', 'chat_1', '--jsn'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentchart status: unknown option --jsn; did you mean --json? (agentchart status --help lists them)\n',
    });
    expect(await agentchart(['mcp', 'serve', '--modul', 'team.ts'])).toMatchObject({
      code: 2,
      stderr: 'agentchart mcp serve: unknown option --modul; did you mean --module? (agentchart mcp serve --help lists them)\n',
    });
    expect(await agentchart(['check-model', '--provider', 'ollama', '--model', 'x', '--trys', '2'])).toMatchObject({
      code: 2,
      stderr: 'agentchart check-model: unknown option --trys; did you mean --tries? (agentchart check-model --help lists them)\n',
    });
    expect(await agentchart(['--colour'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentchart: unknown option --colour; did you mean --help? (agentchart --help lists the commands)\n',
    });
  });

  it.each(Object.entries(USAGE_LINES))('answers --help on %s with its usage on stdout, exit 0', async (command, line) => {
    const outcome = await agentchart([...command.split(' '), command === 'trace' ? '-h' : '--help']);
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(outcome.stdout.split('\n')[0]).toBe(line);
  });

  it('lists every command on --help (exit 0); alone it prints the same on stderr and exits 2', async () => {
    const help = await agentchart(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    for (const command of Object.keys(USAGE_LINES)) expect(help.stdout).toContain(`\n  agentchart ${command} `);
    expect(help.stdout).toContain('Exit codes: 0 done, 1 failed, 2 wrong command line.');
    expect(await agentchart([])).toEqual({ code: 2, stdout: '', stderr: help.stdout });
  });

  it('exits 2 with one line on an unknown command, subcommand, a missing target or a bad option value', async () => {
    expect(await agentchart(['diagrm', 'x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentchart: unknown command "diagrm"; did you mean diagram? (agentchart --help lists the commands)\n',
    });
    expect(await agentchart(['trace'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentchart trace needs a trace file (.ndjson); see agentchart trace --help.\n',
    });
    expect(await agentchart(['trace', 'a.ndjson', 'b.ndjson'])).toMatchObject({
      code: 2,
      stderr: 'agentchart trace takes one argument, not also "b.ndjson"; see agentchart trace --help.\n',
    });
    expect(await agentchart(['mcp', 'start'])).toMatchObject({
      code: 2,
      stderr: 'agentchart mcp: unknown subcommand "start"; did you mean serve? (agentchart mcp --help)\n',
    });
    expect(await agentchart(['mcp', 'serve'])).toMatchObject({
      code: 2,
      stderr: 'agentchart mcp serve needs --module <file>; see agentchart mcp serve --help.\n',
    });
    expect(await agentchart(['diagram', 'research-rules', '--format', 'png'])).toMatchObject({
      code: 2,
      stderr: 'agentchart diagram: --format must be one of mermaid, svg, json; got "png".\n',
    });
    expect(await agentchart(['enqueue', 'team'])).toMatchObject({
      code: 2,
      stderr: 'agentchart enqueue: Usage: agentchart enqueue <chat> <task> [--id CHAT_ID]\n',
    });
  });

  it('fails (exit 1) when a script starts no run, and leaves no empty trace', async () => {
    const script = join(scratch, 'quiet.mjs');
    writeFileSync(script, "console.log('no agents here');\n");
    const out = join(scratch, 'quiet.trace.ndjson');
    const outcome = await agentchart(['record', script, '--out', out]);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      `no agents here\nagentchart record: ${script} ran to its end without starting an agent run or a group chat, so there is no trace. Does its top level await its runs (\`await agent.run(…).result\`)? Does it import an @agentchart/actors older than the CLI's?\n`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('says which package to install when a command needs an optional one that is missing', async () => {
    const missing = '@agentchart/not-installed';
    await expect(loadOptional(() => import(/* @vite-ignore */ missing), missing, 'agentchart frobnicate')).rejects.toThrow(
      new MissingPackageError(missing, 'agentchart frobnicate'),
    );
    expect(new MissingPackageError('@agentchart/inspect', 'agentchart diagram').message).toBe(
      'agentchart diagram needs @agentchart/inspect, which is not installed: npm install @agentchart/inspect',
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
