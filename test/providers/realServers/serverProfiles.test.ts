import { type ChatRequest, type ModelError, msg } from '@agentchart/core';
import { openai } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { collectEvents } from '../wire/collectEvents.js';
import { type OpenAIWireOptions, startOpenAIServer } from '../wire/openaiWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import type { WireServer } from '../wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 4 × 5?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});
const named: ChatRequest['toolChoice'] = { type: 'tool', name: 'multiply' };
type Body = { tools?: Array<{ function: { name: string } }>; tool_choice?: unknown };

describe('OpenAI-compatible server profiles', () => {
  let server: WireServer;
  afterEach(() => server.close());
  const start = async (profile: OpenAIWireOptions['profile']) => {
    server = await startOpenAIServer({ profile });
  };
  const model = (compat?: 'openai' | 'vllm' | 'llama.cpp' | 'ollama') =>
    openai({ model: 'qwen3', baseURL: `${server.url}/v1`, maxRetries: 0, ...(compat ? { compat } : {}) });
  const multiplyTurn = { toolCalls: [{ name: 'multiply', arguments: { a: 4, b: 5 }, id: 'call_m' }], unconstrained: { text: ['4 × 5 is 20.'] } };

  it.each(['llama.cpp', 'lmstudio'] as const)(
    '%s (detected from /models): a named choice is sent as required with only that tool, and holds',
    async (profile) => {
      await start(profile);
      server.script(multiplyTurn);
      const { events } = await collectEvents(model().stream(ask({ toolChoice: named })));
      const body = server.requests[0]!.body as Body;
      expect(body.tool_choice).toBe('required');
      expect(body.tools?.map((tool) => tool.function.name)).toEqual(['multiply']);
      expect(events[0]).toEqual({ type: 'tool-call', call: { id: 'call_m', name: 'multiply', arguments: { a: 4, b: 5 } } });
      expect(server.others.map((request) => request.path)).toEqual(['/v1/models']);
    },
  );

  it('llama.cpp told it is OpenAI: the named object is silently treated as auto (why the profile exists)', async () => {
    await start('llama.cpp');
    server.script(multiplyTurn, multiplyTurn);
    const { events } = await collectEvents(model('openai').stream(ask({ toolChoice: named })));
    expect((server.requests[0]!.body as Body).tool_choice).toEqual({ type: 'function', function: { name: 'multiply' } });
    // Asked once more within the step, the model answers in prose again: the text is shown.
    expect(server.requests).toHaveLength(2);
    expect(events[0]).toEqual({
      type: 'malformed-reply',
      reason: 'forced-call-missing',
      message: 'The step had to call "multiply", but the reply had no tool call; the model was told what was expected and asked once more.',
    });
    expect(events[1]).toEqual({ type: 'text-delta', text: '4 × 5 is 20.' });
    expect(server.others).toHaveLength(0);
  });

  it('Ollama /v1 (no grammar): a forced reply in prose is answered with what was expected, and the second reply is the call', async () => {
    await start('ollama');
    server.script({ text: ['Twenty.'] }, { text: ['{"name":"multiply","arguments":{"a":4,"b":5}}'] });
    const { events } = await collectEvents(model().stream(ask({ toolChoice: named })));
    expect(events.slice(0, 2)).toEqual([
      {
        type: 'malformed-reply',
        reason: 'forced-call-missing',
        message: 'The step had to call "multiply", but the reply had no tool call; the model was told what was expected and asked once more.',
      },
      { type: 'tool-call', call: { id: 'call_0_0', name: 'multiply', arguments: { a: 4, b: 5 } } },
    ]);
    expect((server.requests[1]!.body as { messages: unknown[] }).messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'Twenty.' },
      {
        role: 'system',
        content:
          'Your reply was not a tool call (you wrote "Twenty."). You must call the tool "multiply" now. ' +
          'Answer with nothing but a JSON object {"name": <tool name>, "arguments": {...}} whose arguments match the tool\'s parameters.',
      },
    ]);
  });

  it('vLLM: a named choice keeps the object, and its finish_reason "stop" still ends in tool-calls', async () => {
    await start('vllm');
    server.script(multiplyTurn);
    const { events } = await collectEvents(model().stream(ask({ toolChoice: named })));
    expect((server.requests[0]!.body as Body).tool_choice).toEqual({ type: 'function', function: { name: 'multiply' } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool-calls' });
  });

  it('detects the server once per provider', async () => {
    await start('vllm');
    server.script({ text: ['a'] }, { text: ['b'] });
    const provider = model();
    await collectEvents(provider.stream(ask()));
    await collectEvents(provider.stream(ask()));
    expect(server.others.map((request) => request.path)).toEqual(['/v1/models']);
  });

  const midStream: Array<[string, OpenAIWireOptions['profile']]> = [
    ['Ollama /v1 (a bare JSON line)', 'ollama'],
    ['older vLLM ({"object":"error"})', 'vllm'],
    ['OpenAI ({"error":{...}})', 'openai'],
  ];

  it.each(midStream)('recognises a mid-stream error from %s with its message', async (_name, profile) => {
    await start(profile);
    server.script({ text: ['Hal'], midStreamError: 'model runner has unexpectedly stopped' });
    const { events, error } = await collectEvents(model().stream(ask()));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
    expect((error as ModelError).message).toContain('the server reported an error: model runner has unexpectedly stopped');
    expect((error as ModelError).message).not.toContain('without a finish reason');
  });

  it('shows delta.refusal as text and ends with content-filter', async () => {
    await start('openai');
    server.script({ refusal: 'I can’t help with that.' });
    const { events } = await collectEvents(model().stream(ask({ tools: [], toolChoice: 'none' })));
    expect(events).toEqual([
      { type: 'text-delta', text: 'I can’t help with that.' },
      { type: 'finish', reason: 'content-filter' },
    ]);
  });

  it('refuses an unknown compat when the provider is created', () => {
    expect(() => openai({ model: 'qwen3', baseURL: 'http://127.0.0.1:1/v1', compat: 'tgi' as never })).toThrowError(
      `openai({ compat }) must be one of 'openai', 'vllm', 'llama.cpp' (also LM Studio), 'ollama'; got "tgi".`,
    );
  });
});
