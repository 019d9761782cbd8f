import { AbortedError, type ChatRequest, ModelError, msg } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { ollama, openai } from '@agentchart/providers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectEvents } from './wire/collectEvents.js';
import { add, adapters, expectedToolSelection, multiply, toolChoices } from './wire/providerAdapters.js';
import { type WireServer, unusedPort } from './wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 2 + 3?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

describe.each(adapters)('provider contract: $name', (adapter) => {
  let server: WireServer;
  beforeEach(async () => {
    server = await adapter.startServer();
  });
  afterEach(() => server.close());

  describe('request shape', () => {
    it('sends the transcript with its tool calls and tool results, and the tools', async () => {
      server.script({ text: ['ok'] });
      const model = adapter.model(server.url);
      await collectEvents(
        model.stream({
          messages: [
            msg.system('Use the tools.'),
            msg.user('What is 2 + 3?'),
            { role: 'assistant', content: '', name: 'calc', toolCalls: [{ id: 'call_7', name: 'add', arguments: { a: 2, b: 3 } }] },
            msg.tool('call_7', 'add', '5'),
          ],
          tools: [add.spec],
          toolChoice: 'auto',
        }),
      );
      const [request] = server.requests;
      expect(request?.path).toBe(adapter.chatPath);
      const tool = { type: 'function', function: { name: 'add', description: 'Adds two numbers.', parameters: add.jsonSchema } };
      expect(request?.body).toEqual(
        adapter.name === 'ollama'
          ? {
              model: 'qwen3',
              stream: true,
              messages: [
                { role: 'system', content: 'Use the tools.' },
                { role: 'user', content: 'What is 2 + 3?' },
                { role: 'assistant', content: '', tool_calls: [{ id: 'call_7', function: { index: 0, name: 'add', arguments: { a: 2, b: 3 } } }] },
                { role: 'tool', content: '5', tool_name: 'add', tool_call_id: 'call_7' },
              ],
              tools: [tool],
            }
          : {
              model: 'qwen3',
              stream: true,
              stream_options: { include_usage: true },
              messages: [
                { role: 'system', content: 'Use the tools.' },
                { role: 'user', content: 'What is 2 + 3?' },
                {
                  role: 'assistant',
                  content: '',
                  name: 'calc',
                  tool_calls: [{ id: 'call_7', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }],
                },
                { role: 'tool', tool_call_id: 'call_7', content: '5' },
              ],
              tools: [tool],
              tool_choice: 'auto',
            },
      );
    });

    it.each(Object.keys(toolChoices))('carries tool choice %s in the protocol’s own fields', async (choice) => {
      server.script(
        choice === 'required' || choice === 'named' ? { toolCalls: [{ name: 'multiply', arguments: { a: 1, b: 2 } }] } : { text: ['ok'] },
      );
      await collectEvents(adapter.model(server.url).stream(ask({ toolChoice: toolChoices[choice] })));
      expect(adapter.toolSelection(server.requests[0]?.body)).toEqual(expectedToolSelection[adapter.name][choice]);
    });

    it('asks for structured output with the response format’s JSON Schema', async () => {
      server.script({ text: ['{"city":"Lisbon"}'] });
      const schema = z.toJSONSchema(z.object({ city: z.string() }));
      await collectEvents(
        adapter.model(server.url).stream(ask({ tools: [], toolChoice: 'none', responseFormat: { type: 'json_schema', name: 'place', schema } })),
      );
      const body = server.requests[0]!.body as Record<string, unknown>;
      if (adapter.name === 'ollama') expect(body.format).toEqual(schema);
      else expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'place', schema, strict: true } });
    });
  });

  describe('streaming assembly', () => {
    it('streams thinking and text as deltas, then usage and the finish reason', async () => {
      server.script({ reasoning: ['Two plus ', 'three.'], text: ['The sum ', 'is 5.'], usage: { input: 12, output: 7 } });
      const { events, error } = await collectEvents(adapter.model(server.url).stream(ask()));
      expect(error).toBeUndefined();
      expect(events).toEqual([
        { type: 'reasoning-delta', text: 'Two plus ' },
        { type: 'reasoning-delta', text: 'three.' },
        { type: 'text-delta', text: 'The sum ' },
        { type: 'text-delta', text: 'is 5.' },
        { type: 'usage', usage: { inputTokens: 12, outputTokens: 7 } },
        { type: 'finish', reason: 'stop' },
      ]);
    });

    it('emits each tool call whole, with parsed arguments and an id', async () => {
      server.script({
        toolCalls: [
          { name: 'add', arguments: { a: 2, b: 3 }, id: 'call_a' },
          { name: 'multiply', arguments: { a: 4, b: 5 }, id: 'call_b' },
        ],
        usage: { input: 20, output: 9 },
      });
      const transcript = [msg.user('Hi'), msg.assistant('Hello!'), msg.user('2+3 and 4*5?')];
      const { events } = await collectEvents(adapter.model(server.url).stream(ask({ messages: transcript })));
      const [first, second] = adapter.callIds(1, ['call_a', 'call_b']);
      expect(events).toEqual([
        { type: 'tool-call', call: { id: first, name: 'add', arguments: { a: 2, b: 3 } } },
        { type: 'tool-call', call: { id: second, name: 'multiply', arguments: { a: 4, b: 5 } } },
        { type: 'usage', usage: { inputTokens: 20, outputTokens: 9 } },
        { type: 'finish', reason: 'tool-calls' },
      ]);
    });
  });

  describe('abort', () => {
    it('ends the stream with AbortedError and closes the connection on the server side', async () => {
      server.script({ text: ['Thinking', ' hard', ' forever'], hangAfter: 2 });
      const controller = new AbortController();
      const stream = adapter.model(server.url).stream(ask({ signal: controller.signal }));
      const done = new Promise<unknown>((resolve) =>
        stream.subscribe({
          next: (event) => event.type === 'text-delta' && controller.abort(),
          error: resolve,
          complete: () => resolve(undefined),
        }),
      );
      expect(await done).toBeInstanceOf(AbortedError);
      expect(await server.connectionEnd(0)).toEqual({ finished: false });
    });

    it('closes the connection when the subscriber unsubscribes', async () => {
      server.script({ text: ['Thinking', ' hard', ' forever'], hangAfter: 2 });
      const subscription = adapter
        .model(server.url)
        .stream(ask())
        .subscribe({ next: () => subscription.unsubscribe() });
      expect(await server.connectionEnd(0)).toEqual({ finished: false });
    });
  });

  describe('errors', () => {
    it('names the host and says to start the server when the connection is refused', async () => {
      const port = await unusedPort();
      const { error } = await collectEvents(adapter.model(`http://127.0.0.1:${port}`).stream(ask()));
      expect(error).toBeInstanceOf(ModelError);
      expect((error as ModelError).code).toBe('MODEL_CONNECTION_FAILED');
      expect((error as ModelError).message).toContain(`127.0.0.1:${port}`);
      expect((error as ModelError).message).toContain('connection refused');
      expect((error as ModelError).message).toMatch(adapter.name === 'ollama' ? /Start Ollama \(`ollama serve`/ : /Start the server/);
    });

    it('says how to get a model the server does not have', async () => {
      server.script(adapter.notFound('qwen9:404b'));
      const { error } = await collectEvents(adapter.model(server.url, { model: 'qwen9:404b' }).stream(ask()));
      expect((error as ModelError).code).toBe('MODEL_NOT_FOUND');
      expect((error as ModelError).message).toContain('`ollama pull qwen9:404b`');
      expect((error as ModelError).details).toMatchObject({ status: 404, model: 'qwen9:404b' });
    });

    it('keeps the status and body of other HTTP errors', async () => {
      server.script(adapter.serverError('CUDA out of memory'));
      const { error } = await collectEvents(adapter.model(server.url).stream(ask()));
      expect((error as ModelError).code).toBe('MODEL_HTTP_ERROR');
      expect((error as ModelError).message).toContain('HTTP 500');
      expect((error as ModelError).message).toContain('CUDA out of memory');
      expect((error as ModelError).details.status).toBe(500);
      expect(JSON.stringify((error as ModelError).details.body)).toContain('CUDA out of memory');
    });

    it('retries a 5xx answer once by default, then answers', async () => {
      server.script(adapter.serverError('loading model'), { text: ['ready'] });
      const model = adapter.model(server.url, { maxRetries: 'default' });
      const { events, error } = await collectEvents(model.stream(ask()));
      expect(error).toBeUndefined();
      expect(events[0]).toEqual({ type: 'text-delta', text: 'ready' });
      expect(server.requests).toHaveLength(2);
    });

    it('gives up with MODEL_TIMEOUT when the server does not answer in time, closing the connection', async () => {
      server.script({ stall: true });
      const model =
        adapter.name === 'ollama'
          ? ollama({ model: 'qwen3', host: server.url, maxRetries: 0, timeoutMs: 100 })
          : openai({ model: 'qwen3', baseURL: `${server.url}/v1`, maxRetries: 0, timeoutMs: 100 });
      const { error } = await collectEvents(model.stream(ask()));
      expect((error as ModelError).code).toBe('MODEL_TIMEOUT');
      expect((error as ModelError).message).toContain('raise `timeoutMs`');
      expect(await server.connectionEnd(0)).toEqual({ finished: false });
    });

    it('ends with MODEL_STREAM_INTERRUPTED when the connection drops mid-stream', async () => {
      server.script({ text: ['The sum', ' is', ' 5.'], dropAfter: 3 });
      const { events, error } = await collectEvents(adapter.model(server.url).stream(ask()));
      expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(0);
      expect(events.some((event) => event.type === 'finish')).toBe(false);
      expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
      expect((error as ModelError).message).toMatch(/broke off before it was complete/);
    });
  });

  describe('agent runs over the wire', () => {
    it('completes a multi-step run with tools', async () => {
      server.script(
        { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_1' }] },
        { toolCalls: [{ name: 'multiply', arguments: { a: 5, b: 4 }, id: 'call_2' }] },
        { text: ['(2 + 3) × 4 ', '= 20.'], usage: { input: 30, output: 8 } },
      );
      const agent = createAgent({ name: 'calc', model: adapter.model(server.url), tools: [add, multiply], instructions: 'Use the tools.' });
      const result = await agent.run('What is (2 + 3) × 4?').result;
      const [firstId] = adapter.callIds(0, ['call_1']);
      const [secondId] = adapter.callIds(1, ['call_2']);
      expect(result.stopReason).toBe('completed');
      expect(result.text).toBe('(2 + 3) × 4 = 20.');
      expect(result.steps).toBe(3);
      expect(result.toolCalls.map((record) => [record.call.id, record.call.name, record.content])).toEqual([
        [firstId, 'add', '5'],
        [secondId, 'multiply', '20'],
      ]);
      expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 8 });
      const lastMessages = (server.requests[2]!.body as { messages: unknown[] }).messages;
      expect(lastMessages.slice(-2)).toEqual(
        adapter.name === 'ollama'
          ? [
              { role: 'assistant', content: '', tool_calls: [{ id: secondId, function: { index: 0, name: 'multiply', arguments: { a: 5, b: 4 } } }] },
              { role: 'tool', content: '20', tool_name: 'multiply', tool_call_id: secondId },
            ]
          : [
              {
                role: 'assistant',
                content: '',
                name: 'calc',
                tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'multiply', arguments: '{"a":5,"b":4}' } }],
              },
              { role: 'tool', tool_call_id: 'call_2', content: '20' },
            ],
      );
    });

    it('aborting the run closes the model connection on the server side', async () => {
      server.script({ text: ['Let me', ' think', ' forever'], hangAfter: 2 });
      const controller = new AbortController();
      const run = createAgent({ name: 'calc', model: adapter.model(server.url), tools: [add] }).run('2 + 3?', { signal: controller.signal });
      run.events$.subscribe((event) => event.type === 'text.delta' && controller.abort());
      const result = await run.result;
      expect(result.stopReason).toBe('aborted');
      expect(await server.connectionEnd(0)).toEqual({ finished: false });
    });

    it('ends with a clear error and the transcript so far intact when the connection drops', async () => {
      server.script({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_1' }] }, { text: ['The sum', ' is'], dropAfter: 2 });
      const agent = createAgent({ name: 'calc', model: adapter.model(server.url), tools: [add] });
      const run = agent.run('What is 2 + 3?');
      const finished = new Promise<unknown>((resolve) => run.events$.subscribe((event) => event.type === 'run.finished' && resolve(event)));
      const result = await run.result;
      const [callId] = adapter.callIds(0, ['call_1']);
      expect(result.stopReason).toBe('error');
      expect(result.error).toMatchObject({ name: 'ModelError', code: 'MODEL_STREAM_INTERRUPTED' });
      expect(result.messages).toEqual([
        msg.user('What is 2 + 3?'),
        { role: 'assistant', content: '', name: 'calc', toolCalls: [{ id: callId, name: 'add', arguments: { a: 2, b: 3 } }] },
        msg.tool(callId as string, 'add', '5'),
      ]);
      expect(await finished).toMatchObject({ type: 'run.finished', reason: 'error', error: { code: 'MODEL_STREAM_INTERRUPTED' } });
    });
  });
});
