import { type RunEvent, SharedStateError, defineTool } from '@agentchart/core';
import { type AgentRun, SHARED_STATE_SYSTEM_ID, createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { z } from 'zod';

// The shared-state actor is made when something first needs it (docs/performance.md, "Lazy shared state").

const note = defineTool({
  name: 'note',
  description: 'Appends a note to the shared state.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }, ctx) => {
    ctx.state.update('notes', (notes) => [...((notes as string[] | undefined) ?? []), text]);
    return 'noted';
  },
});

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const pay = defineTool({
  name: 'pay',
  description: 'Pays.',
  parameters: z.object({ amount: z.number() }),
  approval: 'always',
  execute: ({ amount }, ctx) => {
    ctx.state.set('paid', amount);
    return `paid ${amount}`;
  },
});

const stateActorOf = (run: AgentRun) => run.actor.system.get(SHARED_STATE_SYSTEM_ID);

async function waitForApproval(run: AgentRun): Promise<void> {
  while (!run.actor.getSnapshot().matches('awaitingApproval')) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('lazy shared state', () => {
  it('a run whose tools never touch the state makes no actor, and its result holds the initial values', async () => {
    let during: unknown = 'not seen';
    let run: AgentRun | undefined;
    const model = scriptedModel((_request, index) => {
      if (index === 1) during = run === undefined ? 'no run' : stateActorOf(run);
      return index < 2 ? { toolCalls: [{ name: 'echo', arguments: { text: `step ${index}` } }] } : { text: 'done' };
    });
    run = createAgent({ name: 'quiet', model, tools: [echo] }).run('Go.', { state: { topic: 'cats' } });
    const result = await run.result;
    expect(during).toBeUndefined();
    expect(stateActorOf(run)).toBeUndefined();
    expect(Object.keys(run.actor.getSnapshot().children)).not.toContain('sharedState');
    expect(result.state).toEqual({ topic: 'cats' });
    expect(run.state.values()).toEqual({ topic: 'cats' });
  });

  it("a tool's first write makes the actor: listeners that came before see every change, as run events too", async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'note', arguments: { text: 'one' } }] },
      { toolCalls: [{ name: 'note', arguments: { text: 'two' } }] },
      { text: 'done' },
    ]);
    const run = createAgent({ name: 'writer', model, tools: [note] }).run('Go.', { state: { notes: ['zero'] } });
    const changes: unknown[] = [];
    run.state.changes$.subscribe((change) => changes.push([change.key, change.value, change.previous, change.version]));
    const events: RunEvent[] = [];
    run.events$.subscribe((event) => events.push(event));
    const result = await run.result;
    expect(changes).toEqual([
      ['notes', ['zero', 'one'], ['zero'], 1],
      ['notes', ['zero', 'one', 'two'], ['zero', 'one'], 2],
    ]);
    expect(events.filter((event) => event.type === 'state.changed').map((event) => [event.version, event.toolName, event.agent])).toEqual([
      [1, 'note', 'writer'],
      [2, 'note', 'writer'],
    ]);
    expect(result.state).toEqual({ notes: ['zero', 'one', 'two'] });
    // Made by the write and stopped with the run (which takes it out of the system, as it does a spawned one).
    expect(run.state.ref.getSnapshot().status).toBe('stopped');
    expect(stateActorOf(run)).toBeUndefined();
  });

  it('writes before the run starts and after it ends throw STATE_NOT_RUNNING, whether or not the actor was made', async () => {
    const quiet = createAgent({ name: 'quiet', model: scriptedModel([{ text: 'hi' }]) }).run('Hi.', { state: { a: 1 } });
    expect(() => quiet.state.set('a', 2)).toThrow(SharedStateError);
    expect(quiet.state.get('a')).toBe(1);
    await quiet.result;
    expect(() => quiet.state.set('a', 3)).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));
    expect(quiet.state.values()).toEqual({ a: 1 });
    // `ref` makes the actor, even after the run: it holds the values, and it is not running.
    expect(quiet.state.ref.getSnapshot().context.values).toEqual({ a: 1 });
    expect(() => quiet.state.set('a', 4)).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));
  });

  it('run.state writes while the run waits make the actor; the result has them', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 5 } }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'payer', model, tools: [pay] }).run('Pay.');
    await waitForApproval(run);
    expect(stateActorOf(run)).toBeUndefined();
    run.state.set('note', 'from outside');
    expect(stateActorOf(run)).toBe(run.state.ref);
    run.approve('p1');
    expect((await run.result).state).toEqual({ note: 'from outside', paid: 5 });
  });

  it('a persisted run that never used its state keeps the initial values in the usual format, and resumes', async () => {
    const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 7 } }] }, { text: 'ok' }]);
    const agent = createAgent({ name: 'payer', model, tools: [pay] });
    const run = agent.run('Pay.', { state: { account: 'ACC-1' } });
    await waitForApproval(run);
    expect(stateActorOf(run)).toBeUndefined();
    const snapshot = JSON.parse(JSON.stringify(run.persist()));
    run.abort();
    expect(snapshot.machine.context.sharedState).toEqual({ xstate$$type: 1, id: 'sharedState' });
    // Listed first, as the machine's spawn listed it.
    expect(Object.keys(snapshot.machine.children)[0]).toBe('sharedState');
    expect(snapshot.machine.children.sharedState).toEqual({
      src: 'sharedState',
      systemId: 'sharedState',
      snapshot: { status: 'active', value: {}, historyValue: {}, context: { values: { account: 'ACC-1' }, version: 0 }, children: {} },
    });
    const resumed = agent.resume(snapshot);
    resumed.approve('p1');
    const result = await resumed.result;
    expect(result.state).toEqual({ account: 'ACC-1', paid: 7 });
  });

  it('an inspected run or chat makes its actor when first needed, as a plain one does, and the inspector sees it then', async () => {
    const seen: { logic: unknown; actor: unknown }[] = [];
    const inspect = (event: InspectionEvent) => {
      const { src } = event.actorRef as unknown as { src: string | { id: string } };
      if (event.type === '@xstate.actor') seen.push({ logic: typeof src === 'string' ? src : src.id, actor: event.actorRef });
    };
    const quiet = createAgent({ name: 'seen', model: scriptedModel([{ text: 'hi' }]) }).run('Hi.', { inspect });
    await quiet.result;
    expect(stateActorOf(quiet)).toBeUndefined();
    expect(seen.map(({ logic }) => logic)).toEqual(['agent', 'modelCaller']);

    seen.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'note', arguments: { text: 'one' } }] }, { text: 'done' }]);
    const writer = createAgent({ name: 'writer', model, tools: [note] }).run('Go.', { inspect });
    expect(seen.map(({ logic }) => logic)).not.toContain('sharedState');
    await writer.result;
    const writerState = seen.filter(({ logic }) => logic === 'sharedState');
    expect(writerState).toHaveLength(1);
    expect(writerState[0]?.actor).toBe(writer.state.ref);

    seen.length = 0;
    const chat = createGroupChat({
      agents: [
        createAgent({
          name: 'a',
          model: scriptedModel([{ toolCalls: [{ name: 'note', arguments: { text: 'a' } }] }, { text: 'ok' }]),
          tools: [note],
        }),
      ],
      speakerSelection: 'round_robin',
      maxRounds: 1,
    }).run('Talk.', { inspect });
    expect(seen.map(({ logic }) => logic)).toEqual(['groupChat']);
    await chat.result;
    const chatState = seen.filter(({ logic }) => logic === 'sharedState');
    expect(chatState).toHaveLength(1);
    expect(chatState[0]?.actor).toBe(chat.state.ref);
  });

  it('a chat whose agents never touch the state makes no actor; one whose tools write it reports every change', async () => {
    const quiet = createGroupChat({
      agents: [
        createAgent({ name: 'a', model: scriptedModel([{ text: 'a says' }]) }),
        createAgent({ name: 'b', model: scriptedModel([{ text: 'b says' }]) }),
      ],
      speakerSelection: 'round_robin',
      sharedState: { topic: 'cats' },
      maxRounds: 2,
    }).run('Talk.');
    const quietResult = await quiet.result;
    expect(quietResult.sharedState).toEqual({ topic: 'cats' });
    expect(quiet.state.values()).toEqual({ topic: 'cats' });
    // Never made during the chat: `ref` makes it now, not started (a made one would have been stopped with the chat).
    expect(quiet.state.ref.getSnapshot().status).toBe('active');
    expect(() => quiet.state.set('topic', 'dogs')).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));

    const writerModel = scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'noted it' } : { toolCalls: [{ name: 'note', arguments: { text: 'from a' } }] },
    );
    const busy = createGroupChat({
      agents: [createAgent({ name: 'a', model: writerModel, tools: [note] }), createAgent({ name: 'b', model: scriptedModel([{ text: 'b says' }]) })],
      speakerSelection: 'round_robin',
      sharedState: { notes: [] },
      maxRounds: 2,
    }).run('Talk.');
    const changed: unknown[] = [];
    busy.events$.subscribe((event) => {
      if (event.type === 'state.changed') changed.push([event.change.key, event.change.value, event.change.version, event.change.source?.agent]);
    });
    const busyResult = await busy.result;
    expect(changed).toEqual([['notes', ['from a'], 1, 'a']]);
    expect(busyResult.sharedState).toEqual({ notes: ['from a'] });
    // Stopped by the manager's end, which takes it out of the system, as it does a spawned one.
    expect(busy.state.ref.getSnapshot().status).toBe('stopped');
    expect(busy.actor.system.get(SHARED_STATE_SYSTEM_ID)).toBeUndefined();
  });
});
