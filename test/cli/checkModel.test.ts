import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startOllamaServer } from '../providers/wire/ollamaWire.js';
import { startOpenAIServer } from '../providers/wire/openaiWire.js';
import type { WireServer } from '../providers/wire/wireServer.js';
import { twoTriesOfEveryScenario } from './checkModelTurns.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/examples/bin/agentchart.mjs');
const checkModel = (...args: string[]) => promisify(execFile)('node', [bin, 'check-model', ...args], { cwd: root });
const scratch = mkdtempSync(join(tmpdir(), 'agentchart-check-model-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('agentchart check-model', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('runs every scenario against a fake Ollama (a thinking model on 0.33), prints the report card and writes it as JSON', async () => {
    server = await startOllamaServer({ version: '0.33.0', thinkingModel: true });
    server.script(...twoTriesOfEveryScenario());
    const out = join(scratch, 'ollama.json');
    const { stdout, stderr } = await checkModel('--provider', 'ollama', '--model', 'qwen3:8b', '--host', server.url, '--tries', '2', '--out', out);
    process.stdout.write(`\n${stdout}`);
    expect(stderr).toBe('');
    const rows = Object.fromEntries(
      stdout
        .split('\n')
        .filter((line) => /^\S+\s+\d+\/\d+\s+\d+%/.test(line))
        .map((line) => [line.split(/\s+/)[0], line.split(/\s+/).slice(1, 3)]),
    );
    expect(rows).toEqual({
      'forced-required': ['2/2', '100%'],
      'forced-named': ['2/2', '100%'],
      rules: ['2/2', '100%'],
      'parallel-calls': ['1/2', '50%'],
      'malformed-recovery': ['2/2', '100%'],
      'structured-output': ['2/2', '100%'],
      'long-tool-result': ['2/2', '100%'],
      overall: ['13/14', '93%'],
    });
    expect(stdout).toContain(`check-model: ollama qwen3:8b at ${server.url}, 2 tries per scenario`);
    expect(stdout).toContain('parallel-calls #2: 1 call(s) in the first reply: get_weather({"city":"Lisbon"})');
    const card = JSON.parse(readFileSync(out, 'utf8'));
    expect(card).toMatchObject({ provider: 'ollama', model: 'qwen3:8b', server: server.url, tries: 2, overall: { tries: 14, passed: 13 } });
    expect(card.scenarios.find((scenario: { name: string }) => scenario.name === 'long-tool-result').tokens).toEqual({ input: 4220, output: 21 });
    // Forced steps, two tries each: forced-required, forced-named, and the rules' init and child steps.
    expect(server.requests.filter((request) => (request.body as { think?: unknown }).think === false)).toHaveLength(8);
  });

  it('runs against an OpenAI-compatible fake (llama.cpp, detected), where a named choice must go as required', async () => {
    server = await startOpenAIServer({ profile: 'llama.cpp' });
    const turns = twoTriesOfEveryScenario().filter((turn) => turn.parserError === undefined);
    server.script(...turns);
    const { stdout } = await checkModel('--provider', 'openai', '--model', 'qwen3-8b', '--base-url', `${server.url}/v1`, '--tries', '2');
    expect(stdout).toMatch(/forced-named\s+2\/2\s+100%/);
    expect(stdout).toMatch(/overall\s+13\/14\s+93%/);
  });

  it('says what is wrong with the flags in one line, exit 2', async () => {
    const failed = await checkModel('--provider', 'ollama').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({
      code: 2,
      stderr: 'agentchart check-model: --model names the model as the server knows it, e.g. qwen3:8b. See agentchart check-model --help.\n',
    });
    const unknown = await checkModel('--provider', 'ollama', '--model', 'x', '--bogus').catch((error: { code: number; stderr: string }) => error);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^agentchart check-model: unknown option --bogus; did you mean --[\w-]+\? /),
    });
  });

  it('stops at the first connection failure with the connection error and exit 1, without a report card', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const failed = await checkModel('--provider', 'openai', '--model', 'qwen3-8b', '--base-url', `http://127.0.0.1:${port}/v1`, '--tries', '3').catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect((failed as { stderr: string }).stderr).toMatch(
      new RegExp(`^agentchart check-model: stopped at the first connection failure: .*127\\.0\\.0\\.1:${port}.*\\n$`),
    );
    expect((failed as { stderr: string }).stderr).not.toContain('MODEL_CONNECTION_FAILED');
  });
});
