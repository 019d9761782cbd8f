import { readFile, readdir } from 'node:fs/promises';
import { ConfigurationError, type RunEvent, type StateChange, ToolError, defineTool } from '@agentchart/core';
import { SHARED_STATE_SYSTEM_ID, createAgent, sharedStateHandle, sharedStateMachine } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { z } from 'zod';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const remember = defineTool({
  name: 'remember',
  description: 'Stores a note under a key.',
  parameters: z.object({ key: z.string(), note: z.string() }),
  execute: ({ key, note }, ctx) => {
    ctx.state.set(key, note);
    return `Stored ${key}.`;
  },
});

const recall = defineTool({
  name: 'recall',
  description: 'Reads a note.',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }, ctx) => String(ctx.state.get(key) ?? 'nothing'),
});

const increment = defineTool({
  name: 'increment',
  description: 'Adds one to the counter after some work.',
  parameters: z.object({ workMs: z.number() }),
  execute: async ({ workMs }, ctx) => {
    await delay(workMs);
    return ctx.state.update('count', (count) => ((count as number | undefined) ?? 0) + 1);
  },
});

describe('shared state', () => {
  it('starts from the initial state of the run, is shared by tools and ends in the result', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'remember', arguments: { key: 'city', note: 'Lisbon' } }] },
      {
        toolCalls: [
          { name: 'recall', arguments: { key: 'city' } },
          { name: 'recall', arguments: { key: 'topic' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = createAgent({ name: 'notes', model, tools: [remember, recall] });
    const run = agent.run('Remember Lisbon.', { state: { topic: 'travel', draft: undefined } });
    const result = await run.result;
    expect(result.toolCalls.map((record) => record.content)).toEqual(['Stored city.', 'Lisbon', 'travel']);
    expect(result.state).toEqual({ topic: 'travel', city: 'Lisbon' });
    // an undefined initial value is an absent key, as after set(key, undefined)
    expect(Object.keys(result.state)).toEqual(['topic', 'city']);
    expect(run.state.has('draft')).toBe(false);
  });

  it('reports every change on events$ with the tool call that made it', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'remember', arguments: { key: 'city', note: 'Lisbon' } }] },
      { toolCalls: [{ name: 'remember', arguments: { key: 'city', note: 'Porto' }, id: 'second' }] },
      { text: 'Done.' },
    ]);
    const run = createAgent({ name: 'notes', model, tools: [remember] }).run('Go.');
    const events = await firstValueFrom(run.events$.pipe(toArray()));
    const changes = events.filter((event): event is Extract<RunEvent, { type: 'state.changed' }> => event.type === 'state.changed');
    expect(changes).toEqual([
      {
        type: 'state.changed',
        runId: run.runId,
        agent: 'notes',
        key: 'city',
        value: 'Lisbon',
        previous: undefined,
        deleted: false,
        version: 1,
        toolName: 'remember',
        callId: 'call_0_0',
      },
      {
        type: 'state.changed',
        runId: run.runId,
        agent: 'notes',
        key: 'city',
        value: 'Porto',
        previous: 'Lisbon',
        deleted: false,
        version: 2,
        toolName: 'remember',
        callId: 'second',
      },
    ]);
    const types = events.map((event) => event.type);
    expect(types.indexOf('state.changed')).toBeGreaterThan(types.indexOf('tool.call'));
    expect(types.indexOf('state.changed')).toBeLessThan(types.indexOf('tool.result'));
  });

  it('loses no update when parallel tool calls update the same key', async () => {
    const calls = [30, 5, 20, 0, 10, 15].map((workMs) => ({ name: 'increment', arguments: { workMs } }));
    const model = scriptedModel([{ toolCalls: calls }, { text: 'Counted.' }]);
    const result = await createAgent({ name: 'counter', model, tools: [increment] }).run('Count.', { state: { count: 100 } }).result;
    expect(result.state).toEqual({ count: 106 });
    // each call saw a different value: no two read-modify-writes interleaved
    expect(result.toolCalls.map((record) => record.value).sort()).toEqual([101, 102, 103, 104, 105, 106]);
  });

  it('gives every run its own state actor, registered under systemId "sharedState"', async () => {
    const model = scriptedModel((request) => {
      const last = request.messages.at(-1);
      return last?.role === 'tool' ? { text: 'ok' } : { toolCalls: [{ name: 'increment', arguments: { workMs: 5 } }] };
    });
    const agent = createAgent({ name: 'counter', model, tools: [increment] });
    const first = agent.run('a', { state: { count: 10 } });
    const second = agent.run('b');
    await delay(1); // both runs are inside their tool call now
    // The actor is made when first needed (docs/performance.md, "Lazy shared state"): `state.ref` makes it.
    const [firstRef, secondRef] = [first.state.ref, second.state.ref];
    expect(first.actor.system.get(SHARED_STATE_SYSTEM_ID)).toBe(firstRef);
    expect(second.actor.system.get(SHARED_STATE_SYSTEM_ID)).toBe(secondRef);
    const [a, b] = await Promise.all([first.result, second.result]);
    expect(a.state).toEqual({ count: 11 });
    expect(b.state).toEqual({ count: 1 });
    expect(first.state.ref).not.toBe(second.state.ref);
  });

  it("checks the initial state and every write against the agent's zod schema", async () => {
    const stateSchema = z.object({ count: z.number().int().default(0), label: z.string().optional() });
    const setLabel = defineTool({
      name: 'set_label',
      description: 'Sets the label.',
      parameters: z.object({ label: z.unknown() }),
      execute: ({ label }, ctx) => {
        ctx.state.set('label', label);
        return 'ok';
      },
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'set_label', arguments: { label: 42 } },
          { name: 'set_label', arguments: { label: 'fine' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = createAgent({ name: 'typed', model, tools: [setLabel], stateSchema });
    expect(() => agent.run('x', { state: { count: 'many' } })).toThrow(ConfigurationError);
    const result = await agent.run('x').result;
    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0]?.content).toContain('Writing "label" would break the shared state\'s schema: label:');
    expect(result.state).toEqual({ count: 0, label: 'fine' });
  });

  it('streams changes on run.state.changes$ and refuses writes once the run has ended', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'remember', arguments: { key: 'a', note: '1' } }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'notes', model, tools: [remember] }).run('Go.');
    const seen: StateChange[] = [];
    run.state.changes$.subscribe((change) => seen.push(change));
    await run.result;
    expect(seen).toEqual([
      { key: 'a', value: '1', previous: undefined, deleted: false, version: 1, source: { agent: 'notes', toolName: 'remember', callId: 'call_0_0' } },
    ]);
    expect(run.state.get('a')).toBe('1');
    expect(() => run.state.set('a', '2')).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));
  });
});

describe('shared-state actor on its own', () => {
  it('sets, updates and deletes keys, emitting one change per applied write', () => {
    const actor = createActor(sharedStateMachine, { input: { initial: { a: 1 } } }).start();
    const state = sharedStateHandle(actor);
    const changes: StateChange[] = [];
    state.changes$.subscribe((change) => changes.push(change));
    expect(state.update('a', (value) => (value as number) + 1)).toBe(2);
    expect(state.delete('missing')).toBe(false);
    expect(state.delete('a')).toBe(true);
    state.set('b', undefined);
    state.set('c', [1]);
    expect(state.values()).toEqual({ c: [1] });
    expect(state.has('a')).toBe(false);
    expect(changes.map(({ key, value, deleted, version }) => ({ key, value, deleted, version }))).toEqual([
      { key: 'a', value: 2, deleted: false, version: 1 },
      { key: 'a', value: undefined, deleted: true, version: 2 },
      { key: 'c', value: [1], deleted: false, version: 3 },
    ]);
  });

  it('leaves the state unchanged when an update function throws', () => {
    const state = sharedStateHandle(createActor(sharedStateMachine, { input: { initial: { a: 1 } } }).start());
    expect(() =>
      state.update('a', () => {
        throw new ToolError('nope');
      }),
    ).toThrow('nope');
    expect(state.values()).toEqual({ a: 1 });
  });

  it('refuses an update function that returns a Promise, writing nothing', () => {
    const state = sharedStateHandle(createActor(sharedStateMachine, { input: { initial: { a: 1 } } }).start());
    expect(() => state.update('a', (async (value: unknown) => (value as number) + 1) as never)).toThrow(
      'state.update("a", fn): fn returned a Promise; it must return the new value synchronously, so that nothing else writes in between. ' +
        'Await your work first, then update with a synchronous fn.',
    );
    expect(state.values()).toEqual({ a: 1 });
  });

  it('refuses writes before the actor has started', () => {
    const state = sharedStateHandle(createActor(sharedStateMachine, { input: {} }));
    expect(() => state.set('a', 1)).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));
  });

  it('refuses writes once stopped, and after a stop that came before any start', () => {
    const stopped = createActor(sharedStateMachine, { input: {} }).start();
    const state = sharedStateHandle(stopped);
    state.set('a', 1);
    stopped.stop();
    expect(() => state.set('a', 2)).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));

    const neverStarted = createActor(sharedStateMachine, { input: {} });
    neverStarted.stop();
    expect(() => sharedStateHandle(neverStarted).set('a', 1)).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));
    expect(state.values()).toEqual({ a: 1 });
  });

  it('a shared state restored from a persisted snapshot takes writes once started, not before', () => {
    const original = createActor(sharedStateMachine, { input: { initial: { a: 1 } } }).start();
    sharedStateHandle(original).set('b', 2);
    const restored = createActor(sharedStateMachine, { snapshot: original.getPersistedSnapshot(), input: {} });
    const state = sharedStateHandle(restored);
    expect(() => state.set('c', 3)).toThrow(expect.objectContaining({ code: 'STATE_NOT_RUNNING' }));
    restored.start();
    state.set('c', 3);
    expect(state.values()).toEqual({ a: 1, b: 2, c: 3 });
    expect(restored.getSnapshot().context.version).toBe(2);
  });

  it("knows whether the actor runs from XState's public API only (no private fields)", async () => {
    const folder = new URL('../../packages/actors/src/sharedState/', import.meta.url);
    for (const file of await readdir(folder)) {
      const source = await readFile(new URL(file, folder), 'utf8');
      expect({ file, privateField: /\._processingStatus|_processingStatus\b/.test(source) }).toEqual({ file, privateField: false });
    }
  });
});
