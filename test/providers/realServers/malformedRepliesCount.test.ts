import { type RunEvent, defineTool, rules } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { ollama, openai } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOllamaServer } from '../wire/ollamaWire.js';
import { startOpenAIServer } from '../wire/openaiWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import type { WireServer, WireTurn } from '../wire/wireServer.js';

// The error line of a built-in tool parser that cannot read a call (server/routes.go, ChatHandler).
const PARSER_ERROR = 'failed to parse JSON: unexpected end of JSON input';
const unreadable: WireTurn = { parserError: PARSER_ERROR };
const addCall = (id: string, args: Record<string, unknown> = { a: 2, b: 3 }): WireTurn => ({ toolCalls: [{ name: 'add', arguments: args, id }] });
const unreadableEvent = (runId: string, step: number) => ({
  type: 'model.malformed',
  runId,
  agent: 'calc',
  step,
  reason: 'tool-call-unreadable',
  message: `The server could not read the tool call (${PARSER_ERROR}); the model was told and asked once more.`,
});

/** A thinking model's forced turn on an Ollama without `think:false` + `format` (0.30): prose, as the grammar is not applied. */
const forcedProse = (prose: string): WireTurn => ({ text: ['{}'], unconstrained: { text: [prose] } });
const written = (name: string, args: Record<string, number>): WireTurn => ({ text: [JSON.stringify({ name, arguments: args })] });

const types = (events: readonly RunEvent[]) => events.map((event) => event.type);
/** The requests' offered tool names, one entry per request. */
const offered = (server: WireServer) =>
  server.requests.map((request) =>
    ((request.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name),
  );

describe('a reply the provider had to ask again for counts toward maxConsecutiveErrors', () => {
  let server: WireServer;
  afterEach(() => server.close());

  it('two unreadable calls in a row (Ollama parser-error lines) end the run with max-consecutive-errors', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script(unreadable, addCall('c1'), unreadable, addCall('c2'), { text: ['I could not call the tools reliably.'] });
    const agent = createAgent({
      name: 'calc',
      model: ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }),
      tools: [add],
      maxConsecutiveErrors: 2,
    });
    const run = agent.run('What is 2 + 3?');
    const events: RunEvent[] = [];
    run.events$.subscribe((event) => events.push(event));
    const result = await run.result;

    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.text).toBe('I could not call the tools reliably.');
    // Both calls ran and succeeded: the steps counted only for their malformed replies.
    expect(result.toolCalls.map((record) => [record.call.id, record.content, record.isError])).toEqual([
      ['c1', '5', false],
      ['c2', '5', false],
    ]);
    expect(events.filter((event) => event.type === 'model.malformed')).toEqual([unreadableEvent(run.runId, 1), unreadableEvent(run.runId, 2)]);
    // Per step: the request, then the malformed reply, then the response (the second reply's).
    expect(types(events).slice(0, 5)).toEqual(['run.started', 'model.request', 'model.malformed', 'usage', 'model.response']);
    // Five requests: two per step, then the last call without tools.
    expect(offered(server)).toEqual([['add'], ['add'], ['add'], ['add'], []]);
  });

  it('a malformed reply followed by a good step resets the count, as a tool error does', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script(unreadable, addCall('c1'), addCall('c2'), unreadable, addCall('c3'), { text: ['5, three times.'] });
    const agent = createAgent({
      name: 'calc',
      model: ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }),
      tools: [add],
      maxConsecutiveErrors: 2,
    });
    const result = await agent.run('Add 2 and 3, three times.').result;
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('5, three times.');
    expect(result.toolCalls.map((record) => record.call.id)).toEqual(['c1', 'c2', 'c3']);
    expect(server.requests).toHaveLength(6);
  });

  it('a malformed reply and a failing call in the same step count once, not twice', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script(unreadable, addCall('c1', { a: 'two' }), { text: ['Sorry.'] });
    const agent = createAgent({
      name: 'calc',
      model: ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }),
      tools: [add],
      maxConsecutiveErrors: 2,
    });
    const result = await agent.run('What is 2 + 3?').result;
    expect(result.toolCalls[0]?.isError).toBe(true);
    // One failing step of two allowed: the run goes on with tools and ends on its own.
    expect(result.stopReason).toBe('completed');
    expect(offered(server)).toEqual([['add'], ['add'], ['add']]);
  });

  it('forced steps under tool rules (the long path): prose twice in a row, each re-asked, ends with max-consecutive-errors', async () => {
    server = await startOllamaServer({ version: '0.30.0', thinkingModel: true });
    server.script(
      forcedProse('Two plus three is five.'),
      written('add', { a: 2, b: 3 }),
      forcedProse('Five times four is twenty.'),
      written('multiply', { a: 5, b: 4 }),
      { text: ['20.'] },
    );
    const agent = createAgent({
      name: 'calc',
      model: ollama({ model: 'qwen3:8b', host: server.url, maxRetries: 0 }),
      tools: [add, multiply],
      toolRules: [rules.init('add'), rules.child('add', ['multiply'])],
      maxConsecutiveErrors: 2,
    });
    const run = agent.run('(2 + 3) × 4?');
    const events: RunEvent[] = [];
    run.events$.subscribe((event) => events.push(event));
    const result = await run.result;
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.toolCalls.map((record) => [record.call.name, record.content])).toEqual([
      ['add', '5'],
      ['multiply', '20'],
    ]);
    expect(events.flatMap((event) => (event.type === 'model.malformed' ? [[event.step, event.reason]] : []))).toEqual([
      [1, 'forced-call-missing'],
      [2, 'forced-call-missing'],
    ]);
    expect(offered(server)).toEqual([['add'], ['add'], ['multiply'], ['multiply'], []]);
  });

  it('OpenAI-compatible (Ollama /v1, no grammar): a forced reply in prose counts too', async () => {
    server = await startOpenAIServer({ profile: 'ollama' });
    server.script({ text: ['Five.'] }, written('add', { a: 2, b: 3 }), { text: ['5.'] });
    const agent = createAgent({
      name: 'calc',
      model: openai({ model: 'qwen3', baseURL: `${server.url}/v1`, compat: 'ollama', maxRetries: 0 }),
      tools: [add],
      maxConsecutiveErrors: 1,
    });
    const result = await agent.run('What is 2 + 3?', { toolChoice: 'required' }).result;
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.toolCalls.map((record) => [record.call.name, record.isError])).toEqual([['add', false]]);
    expect(server.requests.map((request) => (request.body as { tool_choice?: unknown }).tool_choice)).toEqual(['required', 'required', undefined]);
  });

  it('a re-asked forced step whose second reply is still prose, which the rules do not accept as an end, counts too', async () => {
    server = await startOpenAIServer({ profile: 'llama.cpp' });
    server.script({ text: ['Five.'] }, { text: ['It is five.'] }, { text: ['I did not add.'] });
    const agent = createAgent({
      name: 'calc',
      model: openai({ model: 'qwen3', baseURL: `${server.url}/v1`, compat: 'llama.cpp', maxRetries: 0 }),
      tools: [add],
      toolRules: [rules.requiredBeforeExit('add')],
      maxConsecutiveErrors: 1,
    });
    const result = await agent.run('What is 2 + 3?').result;
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.text).toBe('I did not add.');
    expect(result.toolCalls).toEqual([]);
    expect(server.requests.map((request) => (request.body as { tool_choice?: unknown }).tool_choice)).toEqual(['required', 'required', undefined]);
  });

  it('a run that waits for approval after a malformed reply keeps the count through persist and resume', async () => {
    server = await startOllamaServer({ version: '0.33.0' });
    server.script(unreadable, addCall('c1'), { text: ['Done.'] });
    const guardedAdd = defineTool({
      name: 'add',
      description: 'Adds two numbers.',
      parameters: z.object({ a: z.number(), b: z.number() }),
      approval: 'always',
      execute: ({ a, b }) => a + b,
    });
    const make = () =>
      createAgent({ name: 'calc', model: ollama({ model: 'qwen3', host: server.url, maxRetries: 0 }), tools: [guardedAdd], maxConsecutiveErrors: 1 });
    const run = make().run('What is 2 + 3?');
    await new Promise<void>((resolve) => {
      const subscription = run.events$.subscribe((event) => {
        if (event.type === 'approval.requested') {
          subscription.unsubscribe();
          resolve();
        }
      });
    });
    const stored = JSON.parse(JSON.stringify(run.persist()));
    run.abort();
    expect(stored.machine.context.draft.malformed).toBe(1);

    const resumed = make().resume(stored);
    resumed.approve('c1');
    const result = await resumed.result;
    // The approved call succeeded, but the step's reply was malformed: with maxConsecutiveErrors 1 that is the limit.
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.toolCalls.map((record) => [record.call.id, record.content])).toEqual([['c1', '5']]);
  });
});
