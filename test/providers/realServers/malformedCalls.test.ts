import { type ChatRequest, type ModelError, msg } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { ollama, openai } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { collectEvents } from '../wire/collectEvents.js';
import { startOllamaServer } from '../wire/ollamaWire.js';
import { startOpenAIServer } from '../wire/openaiWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import type { WireServer } from '../wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 2 + 3?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

// A built-in parser's error for a call it cannot read reaches the client as an error line (server/routes.go,
// ChatHandler: `builtinParser.Add` → `ch <- gin.H{"error": err.Error()}`); the text is Go's encoding/json error.
const PARSER_ERROR = 'failed to parse JSON: unexpected end of JSON input';

describe('malformed calls are recovered, never the end of a run', () => {
  let server: WireServer;
  afterEach(() => server.close());

  it('Ollama parser-error line: tells the model its call could not be read and asks again within the step', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script({ parserError: PARSER_ERROR }, { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_x1' }] });
    const { events, error } = await collectEvents(ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }).stream(ask()));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      {
        type: 'malformed-reply',
        reason: 'tool-call-unreadable',
        message: `The server could not read the tool call (${PARSER_ERROR}); the model was told and asked once more.`,
      },
      { type: 'tool-call', call: { id: 'call_x1', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
    expect((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1)).toEqual({
      role: 'system',
      content:
        `Your last tool call could not be read (the server said: ${PARSER_ERROR}). ` +
        "Call the tool again, with its arguments as one valid JSON object that matches the tool's parameters.",
    });
  });

  it('Ollama parser-error line twice: MODEL_TOOL_CALL_UNREADABLE, not "run again"', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script({ parserError: PARSER_ERROR }, { parserError: PARSER_ERROR });
    const { error } = await collectEvents(ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }).stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_TOOL_CALL_UNREADABLE');
    expect((error as ModelError).message).toContain('twice in one step');
    expect(server.requests).toHaveLength(2);
  });

  it('another mid-stream error stays MODEL_STREAM_INTERRUPTED', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script({ text: ['Hal'], midStreamError: 'an error was encountered while running the model: CUDA error' });
    const { error } = await collectEvents(ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }).stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_STREAM_INTERRUPTED');
    expect(server.requests).toHaveLength(1);
  });

  const written: Array<[string, string[]]> = [
    ['a bare {"name","parameters"} object (llama3.2 template)', ['{"name": "add", ', '"parameters": {"a": 2, "b": 3}}']],
    ['a {"name","arguments"} object', ['{"name":"add","arguments":{"a":2,"b":3}}']],
    ['<tool_call> blocks (hermes, qwen)', ['<tool_', 'call>\n{"name": "add", "arguments": {"a": 2, "b": 3}}\n</tool_call>']],
    ['fenced JSON', ['```json\n{"name": "add", "arguments": {"a": 2, "b": 3}}\n```']],
  ];

  it.each(written)('Ollama: a reply that is %s is taken as the call', async (_form, text) => {
    server = await startOllamaServer();
    server.script({ text });
    const { events } = await collectEvents(ollama({ model: 'llama3.2', host: server.url, maxRetries: 0 }).stream(ask()));
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'ollama_0_0', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it.each(written)('OpenAI-compatible: a reply that is %s is taken as the call', async (_form, text) => {
    server = await startOpenAIServer({ profile: 'llama.cpp' });
    server.script({ text });
    const { events } = await collectEvents(openai({ model: 'llama3.2', baseURL: `${server.url}/v1`, maxRetries: 0 }).stream(ask()));
    expect(events.filter((event) => event.type !== 'usage')).toEqual([
      { type: 'tool-call', call: { id: 'call_0_0', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('keeps text as text: prose streams at once, a call of a tool not offered and textualToolCalls: false stay answers', async () => {
    server = await startOllamaServer();
    server.script(
      { text: ['The sum', ' is 5.'] },
      { text: ['{"name":"delete_all","arguments":{}}'] },
      { text: ['{"name":"add","arguments":{"a":2,"b":3}}'] },
    );
    const model = ollama({ model: 'llama3.2', host: server.url, maxRetries: 0 });
    const prose = await collectEvents(model.stream(ask()));
    expect(prose.events.slice(0, 2)).toEqual([
      { type: 'text-delta', text: 'The sum' },
      { type: 'text-delta', text: ' is 5.' },
    ]);
    const unknown = await collectEvents(model.stream(ask()));
    expect(unknown.events[0]).toEqual({ type: 'text-delta', text: '{"name":"delete_all","arguments":{}}' });
    const off = await collectEvents(ollama({ model: 'llama3.2', host: server.url, maxRetries: 0, textualToolCalls: false }).stream(ask()));
    expect(off.events[0]).toEqual({ type: 'text-delta', text: '{"name":"add","arguments":{"a":2,"b":3}}' });
  });

  it('an agent on a template-parsed model runs the written-out call instead of taking it as its final answer', async () => {
    server = await startOllamaServer();
    server.script({ text: ['{"name": "add", "parameters": {"a": 2, "b": 3}}'] }, { text: ['2 + 3 = 5.'] });
    const agent = createAgent({ name: 'calc', model: ollama({ model: 'llama3.2', host: server.url, maxRetries: 0 }), tools: [add] });
    const result = await agent.run('What is 2 + 3?').result;
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('2 + 3 = 5.');
    expect(result.toolCalls.map((record) => [record.call.name, record.content])).toEqual([['add', '5']]);
  });
});
