import { type ChatRequest, msg } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { ollama, openai } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { collectEvents } from '../wire/collectEvents.js';
import { startOllamaServer } from '../wire/ollamaWire.js';
import { startOpenAIServer } from '../wire/openaiWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import type { WireServer } from '../wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('2+3 and 4+5?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

type Body = { messages: Array<Record<string, unknown>> };

describe('round trips: thinking, call ids and tool_call_id go back to the server', () => {
  let server: WireServer;
  afterEach(() => server.close());

  it('Ollama ≥ 0.12.10: uses the server’s call ids; two calls of one tool go back with their ids, thinking and tool_call_id', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script(
      {
        reasoning: ['Two additions.'],
        toolCalls: [
          { name: 'add', arguments: { a: 2, b: 3 }, id: 'call_k3j2' },
          { name: 'add', arguments: { a: 4, b: 5 }, id: 'call_p9q1' },
        ],
      },
      { text: ['5 and 9.'] },
    );
    const agent = createAgent({ name: 'calc', model: ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }), tools: [add] });
    const result = await agent.run('2+3 and 4+5?').result;
    expect(result.toolCalls.map((record) => [record.call.id, record.content])).toEqual([
      ['call_k3j2', '5'],
      ['call_p9q1', '9'],
    ]);
    expect((server.requests[1]!.body as Body).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        thinking: 'Two additions.',
        tool_calls: [
          { id: 'call_k3j2', function: { index: 0, name: 'add', arguments: { a: 2, b: 3 } } },
          { id: 'call_p9q1', function: { index: 1, name: 'add', arguments: { a: 4, b: 5 } } },
        ],
      },
      { role: 'tool', content: '5', tool_name: 'add', tool_call_id: 'call_k3j2' },
      { role: 'tool', content: '9', tool_name: 'add', tool_call_id: 'call_p9q1' },
    ]);
  });

  it('Ollama built-in parsers: calls that arrive on the done chunk are read', async () => {
    server = await startOllamaServer({ version: '0.33.0', callsOnDone: true });
    server.script({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_d1' }], usage: { input: 9, output: 4 } });
    const { events } = await collectEvents(ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }).stream(ask()));
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'call_d1', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 4 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('Ollama before 0.12.10 (no ids): ids are synthesized and still sent back', async () => {
    server = await startOllamaServer({ version: '0.12.0' });
    server.script({ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: ['5.'] });
    const agent = createAgent({ name: 'calc', model: ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }), tools: [add] });
    await agent.run('2+3?').result;
    expect((server.requests[1]!.body as Body).messages.at(-1)).toEqual({ role: 'tool', content: '5', tool_name: 'add', tool_call_id: 'ollama_0_0' });
  });

  const reasoningFields: Array<[string, 'openai' | 'vllm' | 'llama.cpp' | 'ollama', string | undefined]> = [
    ['vLLM', 'vllm', 'reasoning_content'],
    ['llama.cpp', 'llama.cpp', 'reasoning_content'],
    ['Ollama /v1', 'ollama', 'reasoning'],
    ['OpenAI (which rejects it)', 'openai', undefined],
  ];

  it.each(reasoningFields)('OpenAI-compatible %s: reasoning goes back as %s', async (_server, profile, field) => {
    server = await startOpenAIServer({ profile });
    server.script({ reasoning: ['Add them.'], toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 }, id: 'call_r1' }] }, { text: ['5.'] });
    const agent = createAgent({ name: 'calc', model: openai({ model: 'qwen3', baseURL: `${server.url}/v1`, maxRetries: 0 }), tools: [add] });
    const result = await agent.run('2+3?').result;
    expect(result.messages[1]).toMatchObject({ role: 'assistant', reasoning: 'Add them.' });
    const assistant = (server.requests[1]!.body as Body).messages[1] as Record<string, unknown>;
    expect(assistant.tool_calls).toEqual([{ id: 'call_r1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }]);
    if (field === undefined) {
      expect(assistant).not.toHaveProperty('reasoning_content');
      expect(assistant).not.toHaveProperty('reasoning');
    } else expect(assistant[field]).toBe('Add them.');
    expect((server.requests[1]!.body as Body).messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_r1', content: '5' });
  });
});
