import { type ChatRequest, msg } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { ollama } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { collectEvents } from '../wire/collectEvents.js';
import { startOllamaServer } from '../wire/ollamaWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import type { WireServer, WireTurn } from '../wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 4 × 5?')],
  tools: [add.spec, multiply.spec],
  toolChoice: { type: 'tool', name: 'multiply' },
  ...overrides,
});

const CALL = '{"name":"multiply","arguments":{"a":4,"b":5}}';
const called = { type: 'tool-call', call: { id: 'ollama_0_0', name: 'multiply', arguments: { a: 4, b: 5 } } };

/** A thinking model's forced turn: the JSON when the grammar holds, prose when it does not. */
const forcedTurn = (prose: string, reasoning: string[] = []): WireTurn => ({ reasoning, text: [CALL], unconstrained: { text: [prose] } });

describe('forced calls on thinking models (qwen3, gemma4, gpt-oss)', () => {
  let server: WireServer;
  afterEach(() => server.close());
  const model = () => ollama({ model: 'qwen3:8b', host: server.url, maxRetries: 0 });

  it('Ollama ≥ 0.31.2: sends think:false on the forced step, so format applies and the call holds', async () => {
    server = await startOllamaServer({ version: '0.33.0', thinkingModel: true });
    server.script(forcedTurn('I will multiply 4 by 5 for you.'));
    const { events } = await collectEvents(model().stream(ask()));
    expect(events[0]).toEqual(called);
    expect(server.requests[0]?.body).toMatchObject({ think: false, format: { properties: { name: { const: 'multiply' } } } });
    expect(server.others.filter((request) => request.path === '/api/version')).toHaveLength(1);
    server.script(forcedTurn('again'));
    await collectEvents(model().stream(ask()));
    expect(server.requests[1]?.body).toMatchObject({ think: false });
  });

  it('a model that refuses think:false (400) gets the forced step again with think as configured', async () => {
    // Not a reproduced server behaviour (the message is made up): a safety net should a server refuse think:false for a model.
    server = await startOllamaServer({ version: '0.33.0', thinkingModel: true });
    server.script(
      { httpError: { status: 400, body: { error: '"gpt-oss:20b" does not support disabling thinking (think: false)' } } },
      forcedTurn('x', ['4 × 5.']),
    );
    const { events, error } = await collectEvents(ollama({ model: 'gpt-oss:20b', host: server.url, maxRetries: 0, think: 'low' }).stream(ask()));
    expect(error).toBeUndefined();
    expect(events[1]).toEqual(called);
    expect(server.requests.map((request) => (request.body as { think?: unknown }).think)).toEqual([false, 'low']);
  });

  it('asks the server its version once per provider, and not at all without a forced step', async () => {
    server = await startOllamaServer({ version: '0.33.0', thinkingModel: true });
    server.script({ text: ['Hi'] }, forcedTurn('x'), forcedTurn('x'));
    const provider = model();
    await collectEvents(provider.stream(ask({ toolChoice: 'auto' })));
    expect(server.others).toHaveLength(0);
    await collectEvents(provider.stream(ask()));
    await collectEvents(provider.stream(ask()));
    expect(server.others.map((request) => request.path)).toEqual(['/api/version']);
    expect((server.requests[0]!.body as { think?: unknown }).think).toBeUndefined();
  });

  it('Ollama < 0.31.2 with thinking: format applies after the thinking, and think:false is not sent (it would switch format off)', async () => {
    server = await startOllamaServer({ version: '0.30.0', thinkingModel: true });
    server.script(forcedTurn('prose', ['4 times 5.']));
    const { events } = await collectEvents(model().stream(ask()));
    expect(events).toEqual([
      { type: 'reasoning-delta', text: '4 times 5.' },
      called,
      { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
    expect((server.requests[0]!.body as { think?: unknown }).think).toBeUndefined();
  });

  it('Ollama < 0.31.2 with think: false configured: a forced step leaves it out (it would switch format off), other steps keep it', async () => {
    server = await startOllamaServer({ version: '0.30.0', thinkingModel: true });
    server.script(forcedTurn('prose', ['4 times 5.']), { text: ['Hi'] });
    const provider = ollama({ model: 'qwen3:8b', host: server.url, maxRetries: 0, think: false });
    expect((await collectEvents(provider.stream(ask()))).events[1]).toEqual(called);
    await collectEvents(provider.stream(ask({ toolChoice: 'auto' })));
    expect((server.requests[0]!.body as { think?: unknown }).think).toBeUndefined();
    expect((server.requests[1]!.body as { think?: unknown }).think).toBe(false);
  });

  it('an unknown version (a proxy that hides /api/version) sends think as configured, and the lenient read still finds the call', async () => {
    server = await startOllamaServer({ version: null, thinkingModel: true });
    server.script(forcedTurn(`Here: ${CALL}`));
    const provider = ollama({ model: 'qwen3:8b', host: server.url, maxRetries: 0, think: false });
    expect((await collectEvents(provider.stream(ask()))).events[0]).toEqual(called);
    expect((server.requests[0]!.body as { think?: unknown }).think).toBe(false);
  });

  it('empty thinking on an old server (format never applied): the first JSON object of the prose is the call, also fenced', async () => {
    server = await startOllamaServer({ version: '0.30.0', thinkingModel: true });
    server.script(forcedTurn(`Sure! Here is the call:\n\`\`\`json\n${CALL}\n\`\`\`\nDone.`), forcedTurn(`Calling now: ${CALL} as asked`));
    expect((await collectEvents(model().stream(ask()))).events[0]).toEqual(called);
    expect((await collectEvents(model().stream(ask()))).events[0]).toEqual(called);
    expect(server.requests).toHaveLength(2);
  });

  it('prose without a call: tells the model what was expected and asks once more within the step', async () => {
    server = await startOllamaServer({ version: '0.30.0', thinkingModel: true });
    server.script(forcedTurn('Four times five is twenty.'), { text: [CALL] });
    const { events } = await collectEvents(model().stream(ask({ toolChoice: 'required' })));
    expect(events.slice(0, 2)).toEqual([
      {
        type: 'malformed-reply',
        reason: 'forced-call-missing',
        message:
          'The step had to call one of "add", "multiply", but the reply had no tool call; the model was told what was expected and asked once more.',
      },
      called,
    ]);
    const retry = (server.requests[1]!.body as { messages: unknown[] }).messages.slice(-2);
    expect(retry).toEqual([
      { role: 'assistant', content: 'Four times five is twenty.' },
      {
        role: 'system',
        content:
          'Your reply was not a tool call (you wrote "Four times five is twenty."). You must call one of the tools "add", "multiply" now. ' +
          'Answer with nothing but a JSON object {"name": <tool name>, "arguments": {...}} whose arguments match the tool\'s parameters.',
      },
    ]);
  });

  it('prose twice on a named call: the call arrives with the text as malformedArguments, which the agent answers and counts as an error', async () => {
    server = await startOllamaServer({ version: '0.30.0', thinkingModel: true });
    server.script(forcedTurn('Twenty.'), forcedTurn('It is twenty.'), { text: ['4 × 5 = 20.'] });
    const agent = createAgent({ name: 'calc', model: model(), tools: [add, multiply], maxConsecutiveErrors: 1 });
    const result = await agent.run('What is 4 × 5?', { toolChoice: { mode: 'required', requiredFunctionName: 'multiply' } }).result;
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.toolCalls[0]?.call).toEqual({ id: 'ollama_0_0', name: 'multiply', arguments: undefined, malformedArguments: 'It is twenty.' });
    expect(result.toolCalls[0]?.isError).toBe(true);
  });
});
