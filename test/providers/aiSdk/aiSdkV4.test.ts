import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { add, multiply } from '../wire/providerAdapters.js';
import { describe, expect, it } from 'vitest';

/**
 * AI SDK 7 (specification v4) needs Node 22 or later, so its checks run in a
 * Node 22 and a Node 24 process (`npx -y node@…`), whatever Node runs the
 * suite: `fixtures/aiSdkV4Checks.ts` drives `ai`'s own `MockLanguageModelV4`
 * and the real `@ai-sdk/openai-compatible` 3.x provider against the loopback
 * OpenAI-compatible server and prints what it saw; this test asserts it.
 */
const run = promisify(execFile);
const script = fileURLToPath(new URL('./fixtures/aiSdkV4Checks.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

async function checksOn(major: 22 | 24): Promise<unknown> {
  const { stdout } = await run('npx', ['-y', `node@${major}`, '--import', 'tsx', script], {
    cwd: repoRoot,
    timeout: 150_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? 'null');
}

const error = (name: string, code: string) => ({ name, code });
const tools = [
  ['add', add.spec.parameters],
  ['multiply', multiply.spec.parameters],
];
const transcript = [
  { role: 'user', content: [{ type: 'text', text: '2 + 3?' }] },
  {
    role: 'assistant',
    content: [
      { type: 'reasoning', text: 'Add.' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 2, b: 3 } },
    ],
  },
  { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'error-text', value: 'boom' } }] },
];

const expected = (node: number) => ({
  node,
  mock: {
    specificationVersion: 'v4',
    named: ['anthropic', 'claude-x'],
    streamed: {
      events: [
        { type: 'reasoning-delta', text: 'Add first.' },
        { type: 'text-delta', text: 'Let me ' },
        { type: 'text-delta', text: 'add.' },
        // the provider-executed web_search is not agentchart's to run; malformed arguments stay text
        { type: 'tool-call', call: { id: 'c1', name: 'add', arguments: { a: 2, b: 3 } } },
        { type: 'tool-call', call: { id: 'c2', name: 'add', malformedArguments: '{"a":2,' } },
        { type: 'usage', usage: { inputTokens: 12, outputTokens: 7 } },
        { type: 'finish', reason: 'tool-calls' },
      ],
    },
    calls: {
      prompt: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'alice: 2 + 3?' }] },
      ],
      tools,
      transcript,
      toolChoices: [
        [{ type: 'auto' }, 2],
        [{ type: 'required' }, 2],
        [{ type: 'none' }, 2],
        [{ type: 'tool', toolName: 'multiply' }, 2],
        [null, null], // structured output without tools: neither tools nor a tool choice sent
      ],
      responseFormat: { type: 'json', name: 'verdict', schema: { type: 'object' } },
      settings: Array(5).fill([0, 256]),
    },
  },
  abort: { events: [{ type: 'text-delta', text: 'Thinking' }], error: error('AbortedError', 'ABORTED'), providerSignalAborted: true },
  errors: {
    notFound: error('ModelError', 'MODEL_NOT_FOUND'),
    unauthorized: error('ModelError', 'MODEL_HTTP_ERROR'),
    unreachable: error('ModelError', 'MODEL_CONNECTION_FAILED'),
    midStream: { events: [{ type: 'text-delta', text: 'Hal' }], error: error('ModelError', 'MODEL_STREAM_INTERRUPTED') },
    interrupted: [
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 0 } },
      { type: 'finish', reason: 'other' },
    ],
  },
  agent: {
    text: 'It is 5.',
    stopReason: 'completed',
    usage: { inputTokens: 30, outputTokens: 8 },
    toolResultSent: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'text', value: '5' } }] },
  },
  openaiCompatible: {
    specificationVersion: 'v4',
    named: ['local', 'qwen3'],
    streamed: {
      events: [
        { type: 'reasoning-delta', text: 'Two sums.' },
        { type: 'text-delta', text: 'Computing' },
        { type: 'text-delta', text: '…' },
        { type: 'tool-call', call: { id: 'call_a', name: 'add', arguments: { a: 2, b: 3 } } },
        { type: 'tool-call', call: { id: 'call_m', name: 'multiply', arguments: { a: 4, b: 5 } } },
        { type: 'usage', usage: { inputTokens: 31, outputTokens: 17 } },
        { type: 'finish', reason: 'tool-calls' },
      ],
    },
    wire: {
      model: 'qwen3',
      stream: true,
      toolChoice: 'required',
      tools: ['add', 'multiply'],
      messages: [{ role: 'user', content: '2 + 3 and 4 × 5?' }],
    },
    namedToolChoice: { type: 'function', function: { name: 'multiply' } },
    notFound: error('ModelError', 'MODEL_NOT_FOUND'),
    unreachable: error('ModelError', 'MODEL_CONNECTION_FAILED'),
    abort: { events: [{ type: 'text-delta', text: 'Long' }], error: 'AbortedError', connection: { finished: false } },
  },
});

describe('aiSdk() with AI SDK 7 (LanguageModelV4) on Node 22 and 24', () => {
  it('maps text and reasoning streams, tools, tool choice, structured output, usage, abort and errors with the mock and a real provider', async () => {
    const [on22, on24] = await Promise.all([checksOn(22), checksOn(24)]);
    expect(on22).toEqual(expected(22));
    expect(on24).toEqual(expected(24));
  }, 300_000);
});
