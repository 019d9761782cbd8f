import { AbortedError, type ChatRequest, ModelError, type ModelEvent, msg } from '@agentchart/core';
import { aiSdk } from '@agentchart/providers/ai-sdk';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { collectEvents } from '../wire/collectEvents.js';
import { openaiModelNotFound, startOpenAIServer } from '../wire/openaiWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import { type WireServer, unusedPort } from '../wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('2 + 3 and 4 × 5?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

/** The real `@ai-sdk/openai-compatible` provider (specification v3) against a loopback server speaking OpenAI's wire format. */
const modelAt = (baseURL: string, modelId = 'qwen3') =>
  aiSdk(createOpenAICompatible({ name: 'local', baseURL, includeUsage: true }).chatModel(modelId));

describe('aiSdk() with @ai-sdk/openai-compatible against a loopback server', () => {
  let server: WireServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('streams reasoning, text, tool calls and usage; sends the tools and the tool choice on the wire', async () => {
    server = await startOpenAIServer();
    server.script({
      reasoning: ['Two sums.'],
      text: ['Computing', '…'],
      toolCalls: [
        { id: 'call_a', name: 'add', arguments: { a: 2, b: 3 } },
        { id: 'call_m', name: 'multiply', arguments: { a: 4, b: 5 } },
      ],
      usage: { input: 31, output: 17 },
    });
    const model = modelAt(`${server.url}/v1`);
    expect([model.provider, model.modelName]).toEqual(['local', 'qwen3']);
    const { events, error } = await collectEvents(model.stream(ask({ toolChoice: 'required' })));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Two sums.' },
      { type: 'text-delta', text: 'Computing' },
      { type: 'text-delta', text: '…' },
      { type: 'tool-call', call: { id: 'call_a', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'tool-call', call: { id: 'call_m', name: 'multiply', arguments: { a: 4, b: 5 } } },
      { type: 'usage', usage: { inputTokens: 31, outputTokens: 17 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
    const body = server.requests[0]!.body as {
      model: string;
      stream: boolean;
      tool_choice: unknown;
      tools: { function: { name: string } }[];
      messages: unknown[];
    };
    expect([body.model, body.stream, body.tool_choice]).toEqual(['qwen3', true, 'required']);
    expect(body.tools.map((tool) => tool.function.name)).toEqual(['add', 'multiply']);
    expect(body.messages).toEqual([{ role: 'user', content: '2 + 3 and 4 × 5?' }]);
  });

  it('a named tool choice reaches the wire as OpenAI names it', async () => {
    server = await startOpenAIServer();
    server.script({ toolCalls: [{ id: 'c', name: 'multiply', arguments: { a: 1, b: 2 } }] });
    await collectEvents(modelAt(`${server.url}/v1`).stream(ask({ toolChoice: { type: 'tool', name: 'multiply' } })));
    expect((server.requests[0]!.body as { tool_choice: unknown }).tool_choice).toEqual({ type: 'function', function: { name: 'multiply' } });
  });

  it('maps an unknown model (404) to MODEL_NOT_FOUND and an unreachable server to MODEL_CONNECTION_FAILED', async () => {
    server = await startOpenAIServer();
    server.script(openaiModelNotFound('nope'));
    const { error } = await collectEvents(modelAt(`${server.url}/v1`, 'nope').stream(ask()));
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'MODEL_NOT_FOUND', details: { status: 404, model: 'nope', provider: 'local' } });

    const port = await unusedPort();
    const { error: unreachable } = await collectEvents(modelAt(`http://127.0.0.1:${port}/v1`).stream(ask()));
    expect(unreachable).toMatchObject({ code: 'MODEL_CONNECTION_FAILED' });
  });

  it('an abort in the middle of the reply closes the connection and ends the stream with AbortedError', async () => {
    server = await startOpenAIServer();
    server.script({ text: ['Long', ' answer', ' never', ' ends'], hangAfter: 2 });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    const error = await new Promise((resolve) => {
      modelAt(`${server?.url}/v1`)
        .stream(ask({ signal: controller.signal }))
        .subscribe({
          next: (event) => {
            events.push(event);
            controller.abort(); // as soon as the reply has begun
          },
          error: resolve,
          complete: () => resolve(undefined),
        });
    });
    expect(error).toBeInstanceOf(AbortedError);
    expect(events).toEqual([{ type: 'text-delta', text: 'Long' }]);
    expect(await server.connectionEnd(0)).toEqual({ finished: false });
  });
});
