import {
  type Agent,
  type GroupChat,
  createAgent,
  createGroupChat,
  humanAgent,
  persistRunToStore,
  resumeChatFromStore,
  resumeRunFromStore,
  startRunInStore,
} from '@agentchart/actors';
import type { RunEvent, RunStore } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { type JournaledToolOptions, journaledTool } from '../durability/journaledTool.js';
import { LEASE_MS, type Scenario, type ScenarioGroup, type Variant, tick } from './corpusKit.js';

/**
 * Runs and chats kept in a SQLite store: the checkpoint and journal writes
 * of each step, a process that dies at each kind of point and another that
 * resumes (calls in doubt, a lost lease), approvals and people waited on in
 * the store. Every store call is recorded (see `corpusKit.ts`).
 */

const never = new Promise<never>(() => {});

/** Effects as the world sees them, and the model requests made. */
interface World {
  ledger: string[];
  modelCalls: number;
}

const world = (): World => ({ ledger: [], modelCalls: 0 });

/**
 * A clerk: `search`, `notify` (not idempotent) and `refresh` (idempotent) in
 * one batch, or `pay` (approval) when asked to pay; then an answer. `hang`
 * names tools (or `model<n>`) that never return: the process dies there.
 */
function clerk(w: World, hang: ReadonlySet<string> = new Set()): Agent {
  const tool = (name: string, options: JournaledToolOptions = {}) =>
    journaledTool(name, options, async (to, ctx) => {
      w.ledger.push(`${name} ${to} key=${ctx.idempotencyKey}`);
      if (hang.has(name)) await never;
    });
  const model = scriptedModel(async (request) => {
    w.modelCalls += 1;
    if (hang.has(`model${w.modelCalls}`)) await never;
    if (request.messages.at(-1)?.role === 'tool')
      return { text: `finished after ${request.messages.filter((m) => m.role === 'tool').length} results` };
    const pay = request.messages.some((message) => message.role === 'user' && message.content.includes('pay'));
    return pay
      ? { toolCalls: [{ id: 'pay', name: 'pay', arguments: { to: 'Bob' } }] }
      : {
          toolCalls: [
            { id: 's', name: 'search', arguments: { to: 'Ann' } },
            { id: 'n', name: 'notify', arguments: { to: 'Ann' } },
            { id: 'r', name: 'refresh', arguments: { to: 'Ann' } },
          ],
        };
  });
  return createAgent({
    name: 'clerk',
    model,
    tools: [tool('search'), tool('notify'), tool('refresh', { idempotent: true }), tool('pay', { approval: 'always' })],
  });
}

/** clerk, checker and (when `withPerson`) boss, round robin, three turns. */
function office(w: World, hang: ReadonlySet<string> = new Set(), withPerson = false): GroupChat {
  const checker = createAgent({ name: 'checker', model: scriptedModel(async () => ({ text: 'checked' })) });
  return createGroupChat({
    name: 'office',
    agents: [clerk(w, hang), checker, ...(withPerson ? [humanAgent({ name: 'boss' })] : [])],
    speakerSelection: 'round_robin',
    maxRounds: 3,
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await tick(5);
  }
  throw new Error('timed out waiting for the store');
}

function collect(run: { events$: { subscribe(next: (event: RunEvent | { type: string }) => void): unknown } }) {
  const events: unknown[] = [];
  run.events$.subscribe((event) => events.push(event));
  return events;
}

const options = (v: Variant, store: RunStore, owner: string) => ({
  store,
  owner,
  leaseMs: LEASE_MS,
  ...(v.inspect === undefined ? {} : { inspect: v.inspect }),
});
const store = (v: Variant) => v.store as RunStore;
const observer = (v: Variant) => v.observer as RunStore;

/** What the store holds for `id` at the end (the run row and its journal). */
async function stored(v: Variant, id: string) {
  const reader = observer(v);
  return { run: await reader.loadRun(id), calls: await reader.listCalls(id) };
}

const scenarios: Record<string, Scenario> = {
  runCheckpointsEachStep: async (v) => {
    const w = world();
    const run = v.track(clerk(w).run('look up Ann', { ...options(v, store(v), 'w1'), runId: 'run-1' }));
    const events = collect(run);
    const result = await run.result;
    await v.settle();
    return { events, result, ledger: w.ledger, stored: await stored(v, 'run-1') };
  },
  runStartedInStore: async (v) => {
    const w = world();
    const durable = await startRunInStore(clerk(w), 'look up Ann', { ...options(v, store(v), 'w1'), runId: 'run-1' });
    v.track(durable.run);
    const events = collect(durable.run);
    const result = await durable.run.result;
    await durable.settled;
    return { events, result, ledger: w.ledger, stored: await stored(v, 'run-1') };
  },
  approvalPersistedToStoreAndResumed: async (v) => {
    const w = world();
    const first = v.track(clerk(w).run('pay Bob', v.inspect === undefined ? {} : { inspect: v.inspect }));
    await until(async () => first.pendingApprovals.length > 0);
    await persistRunToStore(first, { store: store(v), owner: 'web' });
    first.abort();
    await first.result;
    const second = await v.another('p2');
    const resumed = await resumeRunFromStore(clerk(w), first.runId, options(v, second, 'w2'));
    v.track(resumed.run);
    const events = collect(resumed.run);
    const pending = resumed.run.pendingApprovals;
    resumed.run.approve('pay');
    const result = await resumed.run.result;
    await resumed.settled;
    return { pending, inDoubt: resumed.inDoubt, events, result, ledger: w.ledger, stored: await stored(v, first.runId) };
  },
  resumeAfterReply: async (v) => {
    const dead = world();
    const dying = v.track(clerk(dead).run('look up Ann', { ...options(v, store(v), 'w1'), runId: 'run-1', middleware: [() => never] }));
    await until(
      async () => ((await observer(v).loadRun('run-1'))?.state as { machine?: { value: string } } | undefined)?.machine?.value === 'acting',
    );
    v.advance(LEASE_MS + 1);
    const w = world();
    const second = await v.another('p2');
    const resumed = await resumeRunFromStore(clerk(w), 'run-1', options(v, second, 'w2'));
    v.track(resumed.run);
    const events = collect(resumed.run);
    const result = await resumed.run.result;
    await resumed.settled;
    dying.abort();
    await dying.result;
    return {
      inDoubt: resumed.inDoubt,
      events,
      result,
      ledger: w.ledger,
      modelCalls: w.modelCalls,
      deadLedger: dead.ledger,
      stored: await stored(v, 'run-1'),
    };
  },
  inDoubtMidBatch: async (v) => {
    const dead = world();
    const dying = v.track(clerk(dead, new Set(['notify', 'refresh'])).run('look up Ann', { ...options(v, store(v), 'w1'), runId: 'run-1' }));
    await until(async () => (await observer(v).listCalls('run-1')).map((call) => call.status).join() === 'finished,started,started');
    v.advance(LEASE_MS + 1);
    const w = world();
    const second = await v.another('p2');
    const resumed = await resumeRunFromStore(clerk(w), 'run-1', options(v, second, 'w2'));
    v.track(resumed.run);
    const events = collect(resumed.run);
    const pending = resumed.run.pendingApprovals;
    await resumed.recordResult('n', 'notify Ann done (checked by hand)');
    resumed.run.approve('n');
    const result = await resumed.run.result;
    await resumed.settled;
    dying.abort();
    return { inDoubt: resumed.inDoubt, pending, events, result, ledger: w.ledger, stored: await stored(v, 'run-1') };
  },
  inDoubtRejectedAndRerun: async (v) => {
    const dead = world();
    const dying = v.track(
      clerk(dead, new Set(['search', 'notify', 'refresh'])).run('look up Ann', { ...options(v, store(v), 'w1'), runId: 'run-1' }),
    );
    await until(async () => (await observer(v).listCalls('run-1')).length === 3);
    v.advance(LEASE_MS + 1);
    const w = world();
    const second = await v.another('p2');
    const resumed = await resumeRunFromStore(clerk(w), 'run-1', options(v, second, 'w2'));
    v.track(resumed.run);
    const events = collect(resumed.run);
    const pending = resumed.run.pendingApprovals;
    resumed.run.approve('s');
    resumed.run.reject('n', 'already sent');
    const result = await resumed.run.result;
    await resumed.settled;
    dying.abort();
    return { inDoubt: resumed.inDoubt, pending, events, result, ledger: w.ledger, stored: await stored(v, 'run-1') };
  },
  leaseLostWhilePaused: async (v) => {
    const first = v.track(clerk(world()).run('pay Bob'));
    await until(async () => first.pendingApprovals.length > 0);
    await persistRunToStore(first, { store: store(v), owner: 'web' });
    first.abort();
    const paused = world();
    const stale = await resumeRunFromStore(clerk(paused), first.runId, options(v, store(v), 'w1'));
    v.track(stale.run);
    v.advance(LEASE_MS + 1);
    const w = world();
    const second = await v.another('p2');
    const current = await resumeRunFromStore(clerk(w), first.runId, options(v, second, 'w2'));
    v.track(current.run);
    stale.run.approve('pay');
    const staleResult = await stale.run.result;
    current.run.approve('pay');
    const result = await current.run.result;
    await current.settled;
    await stale.settled;
    return { staleResult, result, pausedLedger: paused.ledger, ledger: w.ledger, stored: await stored(v, first.runId) };
  },
  ownedElsewhere: async (v) => {
    const running = v.track(clerk(world(), new Set(['model1'])).run('look up Ann', { ...options(v, store(v), 'w1'), runId: 'run-1' }));
    await until(async () => (await observer(v).loadRun('run-1')) !== undefined);
    const second = await v.another('p2');
    const refused = await resumeRunFromStore(clerk(world()), 'run-1', options(v, second, 'w2')).then(
      () => 'resumed',
      (error: unknown) => error,
    );
    running.abort();
    const result = await running.result;
    return { refused, result };
  },
  chatCheckpointsEachTurn: async (v) => {
    const w = world();
    const run = v.track(office(w).run('look up Ann', { ...options(v, store(v), 'w1'), chatId: 'chat-1' }));
    const events = collect(run);
    const result = await run.result;
    await v.settle();
    return { events, result, ledger: w.ledger, stored: await stored(v, 'chat-1') };
  },
  chatResumedAfterCrashInTurn: async (v) => {
    const dead = world();
    const dying = v.track(office(dead, new Set(['refresh'])).run('look up Ann', { ...options(v, store(v), 'w1'), chatId: 'chat-1' }));
    await until(async () => (await observer(v).listCalls('chat-1')).filter((call) => call.status === 'finished').length === 2);
    v.advance(LEASE_MS + 1);
    const w = world();
    const second = await v.another('p2');
    const durable = await resumeChatFromStore(office(w), 'chat-1', options(v, second, 'w2'));
    v.track(durable.chat);
    const events = collect(durable.chat);
    const waiting = durable.chat.waiting();
    if (waiting?.kind === 'approval') for (const request of waiting.requests) durable.chat.approve(request.id);
    const result = await durable.chat.result;
    await durable.settled;
    dying.abort();
    return { inDoubt: durable.inDoubt, waiting, events, result, ledger: w.ledger, stored: await stored(v, 'chat-1') };
  },
  chatWaitingForPersonInStore: async (v) => {
    const w = world();
    const first = v.track(office(w, new Set(), true).run('look up Ann', { ...options(v, store(v), 'w1'), chatId: 'chat-1' }));
    const firstEvents = collect(first);
    await until(async () => first.waiting()?.kind === 'human');
    await v.settle();
    // The first process stops answering here (it is aborted only at the end, when the store has moved on).
    v.advance(LEASE_MS + 1);
    const second = await v.another('p2');
    const durable = await resumeChatFromStore(office(w, new Set(), true), 'chat-1', options(v, second, 'w2'));
    v.track(durable.chat);
    const events = collect(durable.chat);
    const waiting = durable.chat.waiting();
    let refused: unknown;
    try {
      durable.chat.say('boss says go');
    } catch (error) {
      refused = error;
    }
    const result = await durable.chat.result;
    await durable.settled;
    first.abort();
    const aborted = await first.result;
    return { firstEvents, aborted, waiting, refused, events, result, ledger: w.ledger, stored: await stored(v, 'chat-1') };
  },
};

export const storedScenarios: ScenarioGroup = { variants: ['stored', 'storedInspected'], scenarios };
