import { type TraceEntryOf, createTraceRecorder, memorySink, parseTrace } from '@agentchart/inspect';
import { describe, expect, it } from 'vitest';
import { type AnyActorRef, type InspectionEvent, assign, createActor, createMachine, fromPromise, setup, spawnChild, stopChild } from 'xstate';

/**
 * A trace names each actor's parent from what XState's inspection events
 * say (a child is sent `xstate.init` by its parent; a child that never
 * starts is in its parent's snapshot), checked here against XState's own
 * bookkeeping, for every way an actor comes to be.
 */

/** Records the actors `start` makes; returns the trace and what XState itself says of each actor's parent. */
async function traced(start: (inspect: (event: InspectionEvent) => void) => void) {
  let clock = 0;
  const sink = memorySink();
  const recorder = createTraceRecorder({ sink, now: () => (clock += 1), startedAt: new Date(0) });
  const oracle = new Map<AnyActorRef, AnyActorRef | undefined>();
  start((event) => {
    if (event.type === '@xstate.actor') {
      const actor = event.actorRef as AnyActorRef;
      oracle.set(actor, actor._parent);
    }
    recorder.inspect(event);
  });
  // What waits for a parent XState never names is written once the moment's work is done.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const written = sink.lines.length;
  await recorder.close();
  const trace = parseTrace(sink.toNdjson());
  const actors = trace.entries.filter((entry): entry is TraceEntryOf<'actor'> => entry.kind === 'actor');
  const parentOf = (sessionId: string) => actors.find((entry) => entry.actorId.endsWith(`/${sessionId}`))?.parentId?.split('/')[1];
  const expected = [...oracle].map(([actor, parent]) => [actor.sessionId, parent?.sessionId]);
  return { trace, written, actual: expected.map(([sessionId]) => [sessionId, parentOf(sessionId as string)]), expected };
}

const leaf = createMachine({ id: 'leaf', initial: 'on', states: { on: {} } });

describe("an actor's parent, from inspection events", () => {
  it('children invoked in the initial state, spawned in a transition, and grandchildren', async () => {
    const middle = createMachine({ id: 'middle', invoke: { src: leaf, id: 'grandchild' } });
    const root = setup({ actors: { leaf, middle } }).createMachine({
      id: 'root',
      invoke: { src: 'middle', id: 'invoked' },
      on: { spawn: { actions: [spawnChild('leaf', { id: 'spawned' }), spawnChild('middle', { id: 'spawnedMiddle' })] } },
    });
    const { actual, expected, trace } = await traced((inspect) => {
      const actor = createActor(root, { inspect }).start();
      actor.send({ type: 'spawn' });
    });
    expect(expected.filter(([, parent]) => parent !== undefined)).toHaveLength(5);
    expect(actual).toEqual(expected);
    // Written in the order things happened: each actor's entry before its first event.
    const firstSeq = (kind: string, sessionId: string) =>
      trace.entries.find((entry) => entry.kind === kind && 'actorId' in entry && entry.actorId.endsWith(`/${sessionId}`))?.seq ?? -1;
    for (const [sessionId] of expected) expect(firstSeq('actor', sessionId as string)).toBeLessThan(firstSeq('event', sessionId as string));
  });

  it('an actor made with an explicit parent before that parent starts, and a promise actor', async () => {
    const root = setup({ actors: { work: fromPromise(async () => 1) } }).createMachine({ id: 'root', invoke: { src: 'work' } });
    const { actual, expected } = await traced((inspect) => {
      const owner = createActor(root, { inspect });
      createActor(leaf, { parent: owner, id: 'side' }).start();
      owner.start();
    });
    expect(expected.filter(([, parent]) => parent !== undefined)).toHaveLength(2);
    expect(actual).toEqual(expected);
  });

  it('an inspector attached to a running system', async () => {
    const root = setup({ actors: { leaf } }).createMachine({ id: 'root', on: { spawn: { actions: spawnChild('leaf', { id: 'late' }) } } });
    const { actual, expected, written, trace } = await traced((inspect) => {
      const actor = createActor(root).start();
      actor.system.inspect(inspect);
      actor.send({ type: 'spawn' });
    });
    expect(expected).toHaveLength(1);
    expect(actual).toEqual(expected);
    expect(written).toBe(trace.entries.length + 1);
  });

  it('a child stopped before it started is written without a parent once the moment passes, and holds nothing back', async () => {
    const root = setup({ actors: { leaf } }).createMachine({
      id: 'root',
      context: { n: 0 },
      on: {
        flash: { actions: [spawnChild('leaf', { id: 'flash' }), stopChild('flash')] },
        count: { actions: assign({ n: ({ context }) => context.n + 1 }) },
      },
    });
    const { trace, written } = await traced((inspect) => {
      const actor = createActor(root, { inspect }).start();
      actor.send({ type: 'flash' });
      actor.send({ type: 'count' });
    });
    const flash = trace.entries.find((entry): entry is TraceEntryOf<'actor'> => entry.kind === 'actor' && entry.name === 'leaf');
    expect(flash?.parentId).toBeUndefined();
    expect(written).toBe(trace.entries.length + 1);
    expect(trace.entries.some((entry) => entry.kind === 'event' && entry.event.type === 'count')).toBe(true);
  });
});
