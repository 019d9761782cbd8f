import { type ChatRequest, ConfigurationError, type ModelError, msg } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { openai } from '@agentchart/providers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTool } from '@agentchart/core';
import { z } from 'zod';
import { collectEvents } from './wire/collectEvents.js';
import { startOpenAIServer } from './wire/openaiWire.js';
import { add, multiply } from './wire/providerAdapters.js';
import type { WireServer } from './wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('2 + 3 and 4 × 5?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

const sse = (delta: Record<string, unknown>, finishReason: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
const DONE = 'data: [DONE]\n\n';

describe('openai provider', () => {
  let server: WireServer;
  afterEach(() => server.close());
  const model = (extra: Partial<Parameters<typeof openai>[0]> = {}) =>
    openai({ model: 'qwen3', baseURL: `${server.url}/v1`, maxRetries: 0, ...extra });

  it('assembles tool-call deltas from a server that sends no `index`', async () => {
    server = await startOpenAIServer({ omitIndex: true });
    server.script({
      toolCalls: [
        { name: 'add', arguments: { a: 2, b: 3 }, id: 'call_x' },
        { name: 'multiply', arguments: { a: 4, b: 5 }, id: 'call_y' },
      ],
    });
    const { events } = await collectEvents(model().stream(ask()));
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_x', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'tool-call', call: { id: 'call_y', name: 'multiply', arguments: { a: 4, b: 5 } } },
    ]);
  });

  it('separates calls that a server sends whole under one reused index, and synthesizes missing ids', async () => {
    server = await startOpenAIServer();
    server.script({
      frames: [
        sse({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', function: { name: 'add', arguments: '{"a":1,"b":1}' } }] }),
        sse({ tool_calls: [{ index: 0, id: 'call_2', function: { name: 'multiply', arguments: '{"a":2,"b":2}' } }] }),
        sse({ tool_calls: [{ function: { name: 'add', arguments: '{"a":3,' } }] }),
        sse({ tool_calls: [{ function: { arguments: '"b":3}' } }] }),
        sse({}, 'tool_calls'),
        DONE,
      ],
    });
    const { events } = await collectEvents(model({ includeUsage: false }).stream(ask()));
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'call_1', name: 'add', arguments: { a: 1, b: 1 } } },
      { type: 'tool-call', call: { id: 'call_2', name: 'multiply', arguments: { a: 2, b: 2 } } },
      { type: 'tool-call', call: { id: 'call_0_2', name: 'add', arguments: { a: 3, b: 3 } } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('reads reasoning sent as `reasoning` (Ollama /v1, OpenRouter) as well as `reasoning_content`', async () => {
    server = await startOpenAIServer();
    server.script({ frames: [sse({ reasoning: 'Hmm.' }), sse({ reasoning_content: ' Yes.' }), sse({ content: 'Done.' }, 'stop'), DONE] });
    const { events } = await collectEvents(model().stream(ask()));
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Hmm.' },
      { type: 'reasoning-delta', text: ' Yes.' },
      { type: 'text-delta', text: 'Done.' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('turns malformed argument JSON into malformedArguments, and the agent answers it without failing', async () => {
    server = await startOpenAIServer();
    server.script({ toolCalls: [{ name: 'add', argumentsText: '{"a": 2, "b":', id: 'call_bad' }] }, { text: ['Sorry, 5.'] });
    const result = await createAgent({ name: 'calc', model: model(), tools: [add] }).run('2 + 3?').result;
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls[0]?.call).toEqual({ id: 'call_bad', name: 'add', arguments: undefined, malformedArguments: '{"a": 2, "b":' });
    expect(result.toolCalls[0]?.isError).toBe(true);
    const resent = (server.requests[1]!.body as { messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }> }).messages[1];
    expect(resent?.tool_calls?.[0]?.function.arguments).toBe('{"a": 2, "b":');
  });

  it('sends parallel_tool_calls and strict tool schemas closed to extra properties', async () => {
    server = await startOpenAIServer();
    server.script({ text: ['ok'] });
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a city up.',
      parameters: z.object({ city: z.string(), near: z.object({ lat: z.number() }) }),
      strict: true,
      execute: () => 'x',
    });
    await collectEvents(model().stream(ask({ tools: [lookup.spec], parallelToolCalls: false })));
    const body = server.requests[0]!.body as { parallel_tool_calls: boolean; tools: Array<{ function: Record<string, unknown> }> };
    expect(body.parallel_tool_calls).toBe(false);
    expect(body.tools[0]?.function).toEqual({
      name: 'lookup',
      description: 'Looks a city up.',
      strict: true,
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          near: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'], additionalProperties: false },
        },
        required: ['city', 'near'],
        additionalProperties: false,
      },
    });
  });

  it('ends with MODEL_STREAM_INTERRUPTED when the stream ends without a finish reason', async () => {
    server = await startOpenAIServer();
    server.script({ frames: [sse({ content: 'Hal' })] });
    const { events, error } = await collectEvents(model().stream(ask()));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
    expect((error as ModelError).message).toContain('without a finish reason');
  });

  it('ends with MODEL_STREAM_INTERRUPTED when the server sends an error event mid-stream', async () => {
    server = await startOpenAIServer();
    server.script({ frames: [sse({ content: 'Hal' }), `data: ${JSON.stringify({ error: { message: 'engine crashed' } })}\n\n`] });
    const { error } = await collectEvents(model().stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
    expect((error as ModelError).message).toContain('engine crashed');
  });

  it('needs an API key only when no baseURL names a local server', async () => {
    server = await startOpenAIServer();
    vi.stubEnv('OPENAI_API_KEY', '');
    vi.stubEnv('OPENAI_BASE_URL', '');
    try {
      expect(() => openai({ model: 'gpt-4o-mini', apiKey: undefined })).toThrow(ConfigurationError);
      expect(() => openai({ model: ' ', baseURL: server.url })).toThrow(/needs the model's name/);
      expect(() => openai({ model: 'qwen3', baseURL: 'localhost:8000/v1' })).toThrowError(
        `openai() got the baseURL "localhost:8000/v1", which is not an http(s) URL. Give the server's full base URL, e.g. 'http://127.0.0.1:8000/v1'.`,
      );
      server.script({ text: ['ok'] });
      await collectEvents(model().stream(ask()));
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-no-key-required');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
