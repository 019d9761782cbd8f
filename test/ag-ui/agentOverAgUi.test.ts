import { HttpAgent } from '@ag-ui/client';
import { createAgent } from '@agentchart/actors';
import { type AgUiListener, serveAgUi } from '@agentchart/ag-ui';
import { type AnyTool, defineTool, rules } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEvent, runWithClient } from './agUiTestSupport.js';

const listeners: AgUiListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

const search = defineTool({
  name: 'search',
  description: 'Searches the notes.',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }, ctx) => {
    ctx.state.set('lastQuery', query);
    return `2 notes about ${query}`;
  },
});
const read = defineTool({ name: 'read', description: 'Reads a note.', parameters: z.object({ id: z.string() }), execute: ({ id }) => `note ${id}` });

describe('an agent over AG-UI (HttpAgent with its verification)', () => {
  it('streams text, tool calls with their results, state deltas before the result, and a refusal as CUSTOM', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'read', arguments: { id: 'n1' } }] }, // refused: search comes first
      { text: 'Searching.', toolCalls: [{ name: 'search', arguments: { query: 'draft' } }] },
      { text: 'Two notes.' },
    ]);
    const librarian = createAgent({ name: 'librarian', model, tools: [search, read], toolRules: [rules.init('search')] });
    const listener = await serveAgUi({ agents: [librarian] }).listen();
    listeners.push(listener);
    const client = new HttpAgent({ url: listener.urlOf('librarian'), threadId: 'notes', initialState: { owner: 'ann' } });
    client.addMessage({ id: 'q', role: 'user', content: 'What is in my drafts?' });
    const events = await runWithClient(client, { runId: 'r1' });
    const lines = events.map(describeEvent);
    expect(lines).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {"owner":"ann"}',
      'TOOL_CALL_START read call_0_0',
      'TOOL_CALL_ARGS {"id":"n1"}',
      'TOOL_CALL_END',
      expect.stringMatching(
        /^CUSTOM agentchart\.tool_refused \{"toolCallId":"call_0_0","toolName":"read","rule":"init",.*"allowedTools":\["search"\]\}$/,
      ),
      expect.stringMatching(/^TOOL_CALL_RESULT call_0_0 ".*search.*"$/),
      'TEXT_MESSAGE_START assistant librarian',
      'TEXT_MESSAGE_CONTENT "Searching."',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START search call_1_0',
      'TOOL_CALL_ARGS {"query":"draft"}',
      'TOOL_CALL_END',
      'STATE_DELTA [{"op":"add","path":"/lastQuery","value":"draft"}]',
      'TOOL_CALL_RESULT call_1_0 "2 notes about draft"',
      'TEXT_MESSAGE_START assistant librarian',
      'TEXT_MESSAGE_CONTENT "Two notes."',
      'TEXT_MESSAGE_END',
      'MESSAGES_SNAPSHOT 6',
      'RUN_FINISHED success',
    ]);
    // One message id per message: every text message and every tool result has its own.
    const ids = events.flatMap((event) =>
      (event.type === 'TEXT_MESSAGE_START' || event.type === 'TOOL_CALL_RESULT') && 'messageId' in event ? [String(event.messageId)] : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(client.state).toEqual({ owner: 'ann', lastQuery: 'draft' });
    // The input's messages seeded the run: the model saw the question.
    expect(model.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'What is in my drafts?' });
    expect((events.at(-1) as { result?: unknown }).result).toEqual({ stopReason: 'completed', text: 'Two notes.' });
  });

  it('offers the input frontend tools to the model, returns a call of one to the client, and continues with its result', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'show_chart', arguments: { metric: 'sales' } }] }, { text: 'The chart is on screen.' }]);
    const make = (frontendTools: readonly AnyTool[]) => createAgent({ name: 'analyst', model, tools: [...frontendTools] });
    const listener = await serveAgUi({ agents: [{ name: 'analyst', agent: make }] }).listen();
    listeners.push(listener);
    const client = new HttpAgent({ url: listener.urlOf('analyst'), threadId: 'charts' });
    client.addMessage({ id: 'q', role: 'user', content: 'Chart the sales.' });
    const tools = [
      {
        name: 'show_chart',
        description: 'Shows a chart in the page.',
        parameters: { type: 'object', properties: { metric: { type: 'string' } }, required: ['metric'] },
      },
    ];
    const first = await runWithClient(client, { runId: 'r1', tools });
    expect(first.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {}',
      'TOOL_CALL_START show_chart call_0_0',
      'TOOL_CALL_ARGS {"metric":"sales"}',
      'TOOL_CALL_END',
      'MESSAGES_SNAPSHOT 2',
      'RUN_FINISHED success',
    ]);
    expect((first.at(-1) as { outcome?: unknown }).outcome).toEqual({ type: 'success', pendingToolCallIds: ['call_0_0'] });
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['show_chart']);

    client.addMessage({ id: 'chart-result', role: 'tool', toolCallId: 'call_0_0', content: 'shown' });
    const second = await runWithClient(client, { runId: 'r2', tools });
    expect(second.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {}',
      'TOOL_CALL_RESULT call_0_0 "shown"',
      'TEXT_MESSAGE_START assistant analyst',
      'TEXT_MESSAGE_CONTENT "The chart is on screen."',
      'TEXT_MESSAGE_END',
      'MESSAGES_SNAPSHOT 4',
      'RUN_FINISHED success',
    ]);
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_0_0', toolName: 'show_chart', content: 'shown' });
  });

  it('refuses seeds that are not valid: a state that is not an object, a tool message answering no call', async () => {
    const agent = createAgent({ name: 'echo', model: scriptedModel([{ text: 'hi' }]) });
    const listener = await serveAgUi({ agents: [agent] }).listen();
    listeners.push(listener);
    const badState = new HttpAgent({ url: listener.urlOf('echo'), threadId: 'a', initialState: [1, 2] });
    badState.addMessage({ id: 'q', role: 'user', content: 'Hi' });
    expect((await runWithClient(badState, { runId: 'r1' })).map(describeEvent)).toEqual([
      'RUN_STARTED',
      "RUN_ERROR AG_UI_INPUT_INVALID: The input's state is an array: send a JSON object (or none).",
    ]);
    const orphan = new HttpAgent({ url: listener.urlOf('echo'), threadId: 'b' });
    orphan.addMessage({ id: 't', role: 'tool', toolCallId: 'nope', content: 'x' });
    expect((await runWithClient(orphan, { runId: 'r1' })).map(describeEvent)).toEqual([
      'RUN_STARTED',
      'RUN_ERROR AG_UI_INPUT_INVALID: messages[0] (id "t") answers tool call "nope", which no earlier assistant message made.',
    ]);
  });
});

describe('one input at a time per thread', () => {
  it('refuses a second input while the thread streams, and a client that goes away aborts the run', async () => {
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    let aborted = false;
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until the run is aborted.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          started();
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            resolve('aborted');
          });
        }),
    });
    const agent = createAgent({
      name: 'waiter',
      model: scriptedModel((_request, index) => (index === 0 ? { toolCalls: [{ name: 'wait', arguments: {} }] } : { text: 'Done waiting.' })),
      tools: [wait],
    });
    const listener = await serveAgUi({ agents: [agent] }).listen();
    listeners.push(listener);
    const client = new HttpAgent({ url: listener.urlOf('waiter'), threadId: 'busy' });
    client.addMessage({ id: 'q', role: 'user', content: 'Wait.' });
    const running = client.runAgent({ runId: 'r1' });
    await toolStarted;
    const second = new HttpAgent({ url: listener.urlOf('waiter'), threadId: 'busy' });
    second.addMessage({ id: 'q', role: 'user', content: 'Wait.' });
    expect((await runWithClient(second, { runId: 'r2' })).map(describeEvent)).toEqual([
      'RUN_STARTED',
      'RUN_ERROR AG_UI_THREAD_BUSY: Thread "busy" is answering another input: wait for its stream to end.',
    ]);
    client.abortRun();
    await running.catch(() => undefined);
    await expect.poll(() => aborted).toBe(true);
    // The thread is free again: a new input starts a new run.
    const next = await runWithClient(second, { runId: 'r3' });
    expect(next.map(describeEvent).slice(0, 2)).toEqual(['RUN_STARTED', 'STATE_SNAPSHOT {}']);
  });
});
