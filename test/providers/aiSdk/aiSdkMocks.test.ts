import { createAgent } from '@agentchart/actors';
import { AbortedError, type ChatRequest, ConfigurationError, ModelError, defineTool, msg } from '@agentchart/core';
import { aiSdk } from '@agentchart/providers/ai-sdk';
import { APICallError, type LanguageModelV2StreamPart, type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectEvents } from '../wire/collectEvents.js';
import { add, multiply } from '../wire/providerAdapters.js';

const streamOf = <P>(parts: P[]) =>
  new ReadableStream<P>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });

const v3Usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

/** A v3 reply: reasoning, text in two pieces, one tool call, usage. */
const v3Reply: LanguageModelV3StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'reasoning-start', id: 'r' },
  { type: 'reasoning-delta', id: 'r', delta: 'Add first.' },
  { type: 'reasoning-end', id: 'r' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Let me ' },
  { type: 'text-delta', id: 't', delta: 'add.' },
  { type: 'text-end', id: 't' },
  { type: 'tool-input-start', id: 'c1', toolName: 'add' },
  { type: 'tool-input-delta', id: 'c1', delta: '{"a":2,"b":3}' },
  { type: 'tool-input-end', id: 'c1' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":2,"b":3}' },
  { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: v3Usage(12, 7) },
];

/** The same reply in specification v2's shapes. */
const v2Reply: LanguageModelV2StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'reasoning-delta', id: 'r', delta: 'Add first.' },
  { type: 'text-delta', id: 't', delta: 'Let me ' },
  { type: 'text-delta', id: 't', delta: 'add.' },
  { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":2,"b":3}' },
  { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 } },
];

const expectedEvents = [
  { type: 'reasoning-delta', text: 'Add first.' },
  { type: 'text-delta', text: 'Let me ' },
  { type: 'text-delta', text: 'add.' },
  { type: 'tool-call', call: { id: 'c1', name: 'add', arguments: { a: 2, b: 3 } } },
  { type: 'usage', usage: { inputTokens: 12, outputTokens: 7 } },
  { type: 'finish', reason: 'tool-calls' },
];

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.system('Be brief.'), msg.user('2 + 3?', 'alice')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

describe('aiSdk() with the AI SDK mock language models', () => {
  it('streams text, reasoning, a tool call, usage and the finish reason from a v3 model', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      modelId: 'claude-x',
      doStream: async () => ({ stream: streamOf(v3Reply) }),
    });
    const model = aiSdk(mock);
    expect([model.provider, model.modelName]).toEqual(['anthropic', 'claude-x']);
    const { events, error } = await collectEvents(model.stream(ask()));
    expect(error).toBeUndefined();
    expect(events).toEqual(expectedEvents);
    const call = mock.doStreamCalls[0];
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'alice: 2 + 3?' }] },
    ]);
    expect(call?.tools?.map((tool) => tool.type === 'function' && [tool.name, tool.inputSchema])).toEqual([
      ['add', add.spec.parameters],
      ['multiply', multiply.spec.parameters],
    ]);
    expect(call?.toolChoice).toEqual({ type: 'auto' });
  });

  it('streams the same from a v2 model (AI SDK 5 providers)', async () => {
    // The mock is built on @ai-sdk/provider 2.x, whose JSON types TypeScript tells apart from 3.x's: the parts are the same.
    const mock = new MockLanguageModelV2({
      provider: 'openai.chat',
      modelId: 'gpt-x',
      doStream: async () => ({ stream: streamOf(v2Reply) as never }),
    });
    const model = aiSdk(mock);
    expect([model.provider, model.modelName]).toEqual(['openai', 'gpt-x']);
    const { events, error } = await collectEvents(model.stream(ask()));
    expect(error).toBeUndefined();
    expect(events).toEqual(expectedEvents);
    expect(mock.doStreamCalls[0]?.toolChoice).toEqual({ type: 'auto' });
  });

  it('sends the transcript with tool calls and results (errors marked), tool choice and structured output', async () => {
    const mock = new MockLanguageModelV3({ doStream: async () => ({ stream: streamOf(v3Reply) }) });
    const model = aiSdk(mock, { settings: { temperature: 0, maxOutputTokens: 256 } });
    const messages = [
      msg.user('2 + 3?'),
      { role: 'assistant' as const, content: '', reasoning: 'Add.', toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } }] },
      msg.tool('c1', 'add', 'boom', true),
      { role: 'assistant' as const, content: 'Retrying.', toolCalls: [{ id: 'c2', name: 'add', arguments: undefined, malformedArguments: '{"a":' }] },
      msg.tool('c2', 'add', '5'),
    ];
    const choices: ChatRequest['toolChoice'][] = ['auto', 'required', 'none', { type: 'tool', name: 'multiply' }];
    for (const toolChoice of choices) await collectEvents(model.stream(ask({ messages, toolChoice })));
    await collectEvents(
      model.stream(
        ask({ messages: [msg.user('Judge.')], tools: [], responseFormat: { type: 'json_schema', name: 'verdict', schema: { type: 'object' } } }),
      ),
    );

    expect(mock.doStreamCalls[0]?.prompt.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Add.' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 2, b: 3 } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'error-text', value: 'boom' } }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Retrying.' },
          { type: 'tool-call', toolCallId: 'c2', toolName: 'add', input: '{"a":' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'add', output: { type: 'text', value: '5' } }] },
    ]);
    expect(mock.doStreamCalls.slice(0, 4).map((call) => [call.toolChoice, call.tools?.length])).toEqual([
      [{ type: 'auto' }, 2],
      [{ type: 'required' }, 2],
      [{ type: 'none' }, 2],
      [{ type: 'tool', toolName: 'multiply' }, 2],
    ]);
    expect(mock.doStreamCalls.map((call) => [call.temperature, call.maxOutputTokens])).toEqual(Array(5).fill([0, 256]));
    const structured = mock.doStreamCalls[4];
    expect([structured?.responseFormat, structured?.tools, structured?.toolChoice]).toEqual([
      { type: 'json', name: 'verdict', schema: { type: 'object' } },
      undefined,
      undefined,
    ]);

    const { error } = await collectEvents(model.stream(ask({ toolChoice: { type: 'tool', name: 'divide' } })));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/names the tool "divide", which is not among the offered tools \(add, multiply\)/);
  });

  it('keeps malformed tool arguments as text, and skips calls the provider executed itself', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: streamOf<LanguageModelV3StreamPart>([
          { type: 'tool-call', toolCallId: 'w', toolName: 'web_search', input: '{}', providerExecuted: true },
          { type: 'tool-call', toolCallId: 'c', toolName: 'add', input: '{"a":2,' },
          { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: v3Usage(1, 1) },
        ]),
      }),
    });
    const { events } = await collectEvents(aiSdk(mock).stream(ask()));
    expect(events.filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'c', name: 'add', arguments: undefined, malformedArguments: '{"a":2,' } },
    ]);
  });

  it('aborts: the provider gets an aborted signal and the stream ends with AbortedError', async () => {
    let seen: AbortSignal | undefined;
    const mock = new MockLanguageModelV3({
      doStream: async (options) => {
        seen = options.abortSignal;
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'Thinking' });
              options.abortSignal?.addEventListener('abort', () => controller.error(Object.assign(new Error('aborted'), { name: 'AbortError' })));
            },
          }),
        };
      },
    });
    const controller = new AbortController();
    const collected = collectEvents(aiSdk(mock).stream(ask({ signal: controller.signal })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const { events, error } = await collected;
    expect(events).toEqual([{ type: 'text-delta', text: 'Thinking' }]);
    expect(error).toBeInstanceOf(AbortedError);
    expect(seen?.aborted).toBe(true);
  });

  it("maps the provider's errors to agentchart's codes", async () => {
    const failing = (error: unknown) =>
      aiSdk(new MockLanguageModelV3({ provider: 'anthropic.messages', modelId: 'claude-x', doStream: async () => Promise.reject(error) }));
    const apiError = (statusCode: number | undefined, cause?: unknown) =>
      new APICallError({
        message: 'failed',
        url: 'http://127.0.0.1:9/v1/messages',
        requestBodyValues: {},
        statusCode,
        responseBody: '{"error":"x"}',
        cause,
      });
    const codeOf = async (error: unknown) => {
      const { error: thrown } = await collectEvents(failing(error).stream(ask()));
      return [(thrown as ModelError).constructor.name, (thrown as ModelError).code];
    };
    expect(await codeOf(apiError(404))).toEqual(['ModelError', 'MODEL_NOT_FOUND']);
    expect(await codeOf(apiError(401))).toEqual(['ModelError', 'MODEL_HTTP_ERROR']);
    expect(await codeOf(apiError(undefined, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })))).toEqual([
      'ModelError',
      'MODEL_CONNECTION_FAILED',
    ]);
    const { error: unauthorized } = await collectEvents(failing(apiError(401)).stream(ask()));
    expect((unauthorized as Error).message).toBe(
      'The anthropic API answered HTTP 401 for the anthropic model "claude-x": failed. Check the API key the provider was created with.',
    );

    const midStream = aiSdk(
      new MockLanguageModelV3({
        doStream: async () => ({
          stream: streamOf<LanguageModelV3StreamPart>([
            { type: 'text-delta', id: 't', delta: 'Hal' },
            { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
          ]),
        }),
      }),
    );
    const { events, error } = await collectEvents(midStream.stream(ask()));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ code: 'MODEL_STREAM_INTERRUPTED' });
    expect((error as Error).message).toContain('"message":"Overloaded"');
  });

  it('refuses what is not a v2, v3 or v4 language model, saying what to pass', () => {
    expect(() => aiSdk('claude-sonnet-4-5' as never)).toThrow(
      /not the model id "claude-sonnet-4-5": pass e.g. aiSdk\(anthropic\('claude-sonnet-4-5'\)\)/,
    );
    expect(() => aiSdk((() => undefined) as never)).toThrow(/got a provider, not a model/);
    expect(() => aiSdk({ specificationVersion: 'v1', provider: 'p', modelId: 'm', doStream: () => undefined } as never)).toThrow(
      /specifications v2, v3 and v4; this model says "v1"\. Upgrade the provider package to a version made for AI SDK 5, 6 or 7/,
    );
    expect(() => aiSdk({} as never)).toThrow(ConfigurationError);
  });

  it('runs an agent loop: the tool result goes back, the answer ends the run with usage summed', async () => {
    let call = 0;
    const mock = new MockLanguageModelV3({
      modelId: 'mock-model',
      doStream: async () => {
        call += 1;
        return {
          stream: streamOf<LanguageModelV3StreamPart>(
            call === 1
              ? [
                  { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: '{"a":2,"b":3}' },
                  { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: v3Usage(10, 5) },
                ]
              : [
                  { type: 'text-delta', id: 't', delta: 'It is 5.' },
                  { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: v3Usage(20, 3) },
                ],
          ),
        };
      },
    });
    const adder = defineTool({
      name: 'add',
      description: 'Adds.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => a + b,
    });
    const result = await createAgent({ name: 'calc', model: aiSdk(mock), tools: [adder] }).run('2 + 3?').result;
    expect([result.text, result.stopReason, result.usage]).toEqual(['It is 5.', 'completed', { inputTokens: 30, outputTokens: 8 }]);
    expect(mock.doStreamCalls[1]?.prompt.at(-1)).toEqual({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'text', value: '5' } }],
    });
  });
});
