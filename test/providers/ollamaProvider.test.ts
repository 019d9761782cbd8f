import { type ChatRequest, ConfigurationError, type ModelError, msg } from '@agentchart/core';
import { ollama, probeOllama, resolveOllamaHost } from '@agentchart/providers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { collectEvents } from './wire/collectEvents.js';
import { startOllamaServer } from './wire/ollamaWire.js';
import { add, multiply } from './wire/providerAdapters.js';
import { type WireServer, unusedPort } from './wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 4 × 5?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

describe('ollama provider', () => {
  let server: WireServer;
  beforeEach(async () => {
    server = await startOllamaServer();
  });
  afterEach(() => server.close());
  const model = (extra: Partial<Parameters<typeof ollama>[0]> = {}) => ollama({ model: 'qwen3', host: server.url, maxRetries: 0, ...extra });

  describe('tool choice enforcement', () => {
    it('forces a named tool: offers only it, constrains the reply to its call and reads the JSON back as that call', async () => {
      server.script({ text: ['{"name":"multiply",', '"arguments":{"a":4,"b":5}}'], usage: { input: 40, output: 12 } });
      const { events } = await collectEvents(model().stream(ask({ toolChoice: { type: 'tool', name: 'multiply' } })));
      expect(events).toEqual([
        { type: 'tool-call', call: { id: 'ollama_0_0', name: 'multiply', arguments: { a: 4, b: 5 } } },
        { type: 'usage', usage: { inputTokens: 40, outputTokens: 12 } },
        { type: 'finish', reason: 'tool-calls' },
      ]);
      const body = server.requests[0]!.body as { messages: unknown[]; format: unknown; tools: unknown[] };
      expect(body.tools).toHaveLength(1);
      expect(body.format).toEqual({
        type: 'object',
        properties: { name: { type: 'string', const: 'multiply' }, arguments: multiply.jsonSchema },
        required: ['name', 'arguments'],
        additionalProperties: false,
      });
      expect(body.messages.at(-1)).toEqual({
        role: 'system',
        content:
          'Call the tool "multiply" now. Answer only with a JSON object {"name": "multiply", "arguments": {...}} whose arguments match the tool\'s parameters.',
      });
    });

    it('forces some call with `required`: the reply names which of the allowed tools it calls', async () => {
      server.script({ text: ['{"name":"add","arguments":{"a":1,"b":2}}'] });
      const { events } = await collectEvents(model().stream(ask({ toolChoice: 'required' })));
      expect(events[0]).toEqual({ type: 'tool-call', call: { id: 'ollama_0_0', name: 'add', arguments: { a: 1, b: 2 } } });
      const body = server.requests[0]!.body as { format: { anyOf: unknown[] } };
      expect(body.format.anyOf).toHaveLength(2);
    });

    it('keeps a reply cut off by the token limit as a call with malformedArguments', async () => {
      const cut = '{"name":"add","arguments":{"a":1,';
      server.script({ text: [cut], finish: 'length' });
      const { events, error } = await collectEvents(model().stream(ask({ toolChoice: 'required' })));
      expect(error).toBeUndefined();
      expect(events[0]).toEqual({ type: 'tool-call', call: { id: 'ollama_0_0', name: 'add', arguments: undefined, malformedArguments: cut } });
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
    });

    it('never turns an empty forced reply into a final answer: asks once more, then a malformed call or MODEL_RESPONSE_INVALID', async () => {
      server.script({ text: [], finish: 'length' }, { text: [] }, { text: [] }, { text: ['Sorry.'] });
      const named = await collectEvents(model().stream(ask({ toolChoice: { type: 'tool', name: 'multiply' } })));
      expect(named.events).toEqual([
        {
          type: 'malformed-reply',
          reason: 'forced-call-missing',
          message: 'The step had to call "multiply", but the reply had no tool call; the model was told what was expected and asked once more.',
        },
        { type: 'tool-call', call: { id: 'ollama_0_0', name: 'multiply', arguments: undefined, malformedArguments: '' } },
        { type: 'finish', reason: 'tool-calls' },
      ]);
      expect((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1)).toEqual({
        role: 'system',
        content:
          'Your reply was not a tool call (you wrote nothing). You must call the tool "multiply" now. ' +
          'Answer with nothing but a JSON object {"name": <tool name>, "arguments": {...}} whose arguments match the tool\'s parameters.',
      });
      const required = await collectEvents(model().stream(ask({ toolChoice: 'required' })));
      expect(required.events).toEqual([
        {
          type: 'malformed-reply',
          reason: 'forced-call-missing',
          message:
            'The step had to call one of "add", "multiply", but the reply had no tool call; the model was told what was expected and asked once more.',
        },
      ]);
      expect((required.error as ModelError).code).toBe('MODEL_RESPONSE_INVALID');
      expect((required.error as ModelError).message).toContain(
        'The model had to call one of add, multiply, but twice wrote no call (the second time: "Sorry.")',
      );
      expect(server.requests).toHaveLength(4);
    });

    it('takes a native tool call as the forced call when the server parsed one', async () => {
      server.script({ toolCalls: [{ name: 'multiply', arguments: { a: 4, b: 5 } }] });
      const { events } = await collectEvents(model().stream(ask({ toolChoice: 'required' })));
      expect(events.filter((event) => event.type === 'tool-call')).toEqual([
        { type: 'tool-call', call: { id: 'ollama_0_0', name: 'multiply', arguments: { a: 4, b: 5 } } },
      ]);
    });

    it('refuses a named tool that is not offered, before sending anything', async () => {
      const { error } = await collectEvents(model().stream(ask({ toolChoice: { type: 'tool', name: 'divide' } })));
      expect((error as ModelError).code).toBe('CONFIGURATION_INVALID');
      expect((error as ModelError).message).toContain('"divide"');
      expect(server.requests).toHaveLength(0);
    });
  });

  it('synthesizes the same call ids for the same transcript, and new ones as it grows', async () => {
    const reply = { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] };
    server.script(reply, reply, reply);
    const transcript = [msg.user('1+1?')];
    const grown = [
      ...transcript,
      msg.assistant('', [{ id: 'ollama_0_0', name: 'add', arguments: { a: 1, b: 1 } }]),
      msg.tool('ollama_0_0', 'add', '2'),
    ];
    const ids: string[] = [];
    for (const messages of [transcript, transcript, grown]) {
      const { events } = await collectEvents(model().stream(ask({ messages })));
      for (const event of events) if (event.type === 'tool-call') ids.push(event.call.id);
    }
    expect(ids).toEqual(['ollama_0_0', 'ollama_0_0', 'ollama_1_0']);
  });

  it('passes think, model options and keep_alive through', async () => {
    server.script({ text: ['ok'] });
    await collectEvents(model({ think: 'low', options: { temperature: 0, num_ctx: 8192 }, keepAlive: '10m' }).stream(ask()));
    expect(server.requests[0]?.body).toMatchObject({ think: 'low', options: { temperature: 0, num_ctx: 8192 }, keep_alive: '10m' });
  });

  it('ends with MODEL_STREAM_INTERRUPTED carrying the server’s message when it reports an error mid-stream', async () => {
    const chunk = JSON.stringify({ model: 'qwen3', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hal' }, done: false });
    server.script({ frames: [`${chunk}\n`, `${JSON.stringify({ error: 'an error was encountered while running the model' })}\n`] });
    const { events, error } = await collectEvents(model().stream(ask()));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
    expect((error as ModelError).message).toContain('an error was encountered while running the model');
  });

  it('ends with MODEL_STREAM_INTERRUPTED when the stream ends cleanly without its done line', async () => {
    const chunk = JSON.stringify({ model: 'qwen3', created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hal' }, done: false });
    server.script({ frames: [`${chunk}\n`] });
    const { error } = await collectEvents(model().stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
  });

  describe('finding the server', () => {
    it('resolves host from the option, then OLLAMA_HOST, then 127.0.0.1:11434', () => {
      vi.stubEnv('OLLAMA_HOST', '');
      expect(resolveOllamaHost()).toBe('http://127.0.0.1:11434');
      vi.stubEnv('OLLAMA_HOST', 'gpu-box');
      expect(resolveOllamaHost()).toBe('http://gpu-box:11434');
      expect(resolveOllamaHost(':9000')).toBe('http://127.0.0.1:9000');
      expect(resolveOllamaHost('https://ollama.example.com/')).toBe('https://ollama.example.com');
      vi.unstubAllEnvs();
    });

    it('says what a host must look like when it is not a URL; the probe reports no server', async () => {
      expect(() => ollama({ model: 'qwen3', host: 'gpu box' })).toThrowError(
        'The Ollama host "gpu box" is not a URL. Give `host` (or OLLAMA_HOST) as e.g. "http://127.0.0.1:11434" or "gpu-box:11434".',
      );
      expect(await probeOllama({ host: 'http://' })).toEqual({ host: 'http://', available: false });
    });

    it.each(['ftp://gpu-box:11434', 'file:///tmp/ollama.sock'])('refuses a host that is not http(s) when the model is created (%s)', (host) => {
      const scheme = host.slice(0, host.indexOf(':'));
      let error: unknown;
      try {
        ollama({ model: 'qwen3', host });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error).toMatchObject({
        code: 'CONFIGURATION_INVALID',
        message: `The Ollama host ${JSON.stringify(host)} is a ${scheme} URL; Ollama serves HTTP. Give \`host\` (or OLLAMA_HOST) as an http(s) URL, e.g. "http://127.0.0.1:11434", or as "host:port".`,
      });
    });

    it('probes a running server and reports its version', async () => {
      expect(await probeOllama({ host: server.url })).toEqual({ host: server.url, available: true, version: '0.12.0' });
    });

    it('reports no server when nothing listens', async () => {
      const host = `http://127.0.0.1:${await unusedPort()}`;
      expect(await probeOllama({ host, timeoutMs: 200 })).toEqual({ host, available: false });
    });
  });

  describe('group chats', () => {
    it('names the speaker of a named user message in its text and sends a response format as `format`', async () => {
      server.script({ text: ['{"speaker":"critic"}'] });
      const schema = { type: 'object', properties: { speaker: { type: 'string', enum: ['critic'] } }, required: ['speaker'] };
      await collectEvents(
        model().stream(
          ask({
            messages: [msg.user('Plan it.'), msg.user('Step 1 done.', 'planner')],
            tools: [],
            toolChoice: 'none',
            responseFormat: { type: 'json_schema', name: 'next_speaker', schema },
          }),
        ),
      );
      const body = server.requests[0]!.body as { messages: unknown[]; format: unknown };
      expect(body.messages).toEqual([
        { role: 'user', content: 'Plan it.' },
        { role: 'user', content: 'planner: Step 1 done.' },
      ]);
      expect(body.format).toEqual(schema);
    });
  });
});
