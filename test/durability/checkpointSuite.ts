import { type JournalWrite, type RunLease, type RunStore, type RunWriteBatch, ToolError, defineTool } from '@agentchart/core';
import {
  type Agent,
  type GroupChat,
  createAgent,
  createGroupChat,
  humanAgent,
  resumeChatFromStore,
  resumePending,
  resumeRunFromStore,
  startRunInStore,
} from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { z } from 'zod';
import { type TestClock, testClock } from '../store/runStoreContract.js';
import { type JournaledToolOptions, journaledTool } from './journaledTool.js';
import { writtenCheckpoints } from '../support/writtenCheckpoints.js';

const LEASE = 60_000;
const never = new Promise<never>(() => {});

/** How a suite opens a store: every call another connection ("process") to the same data, on `clock`. */
export type OpenStore = (clock: TestClock) => Promise<RunStore>;

interface World {
  /** Effects, as the outside world sees them: `tool to key=…`. */
  ledger: string[];
  /** Model requests made, per process. */
  modelCalls: number;
}

/**
 * The agent of these tests. Its reply calls `search` (plain), `notify` (not
 * idempotent) and `refresh` (idempotent) in one batch, or `pay` (asks for
 * approval) when the input says "pay"; then it answers. `hang` makes a tool
 * (by name) or the model (`model<n>`, the n-th request) never return: the
 * process "dies" there, as far as the run is concerned.
 */
function agentOf(world: World, hang: ReadonlySet<string> = new Set(), snapshotKey?: string, name = 'clerk'): Agent {
  const tool = (name: string, options: JournaledToolOptions = {}) =>
    journaledTool(name, options, async (to, ctx) => {
      world.ledger.push(`${name} ${to} key=${ctx.idempotencyKey}`);
      if (hang.has(name)) await never;
    });
  const model = scriptedModel(async (request) => {
    world.modelCalls += 1;
    if (hang.has(`model${world.modelCalls}`)) await never;
    if (request.messages.at(-1)?.role === 'tool') {
      const answered = request.messages.filter((message) => message.role === 'tool').length;
      return { text: `finished after ${answered} results` };
    }
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
    name,
    model,
    tools: [tool('search'), tool('notify'), tool('refresh', { idempotent: true }), tool('pay', { approval: 'always' })],
    ...(snapshotKey === undefined ? {} : { snapshotKey }),
  });
}

/**
 * A chat of `clerk` (this file's agent, its tools journaled by the chat)
 * and `checker` (answers), round robin, three turns: clerk, checker, and a
 * person (`boss`) when `withPerson`, else clerk again.
 */
function chatOf(world: World, hang: ReadonlySet<string> = new Set(), options: { withPerson?: boolean; name?: string } = {}): GroupChat {
  const checker = createAgent({
    name: 'checker',
    model: scriptedModel(async () => {
      world.modelCalls += 1;
      if (hang.has(`checker${world.modelCalls}`)) await never;
      return { text: 'checked' };
    }),
  });
  return createGroupChat({
    name: options.name ?? 'office',
    agents: [agentOf(world, hang), checker, ...(options.withPerson ? [humanAgent({ name: 'boss' })] : [])],
    speakerSelection: 'round_robin',
    maxRounds: 3,
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out waiting for the store');
}

const stateOf = async (store: RunStore, runId: string) =>
  (await store.loadRun(runId))?.state as { machine?: { value: string; context: { step: number } }; format: string } | undefined;

/**
 * Checkpoints after every step, on one store implementation: a run started
 * in one "process" (a store connection) that dies at a checkpoint point is
 * resumed by another, from that point, and nothing runs twice.
 */
export function describeCheckpoints(name: string, open: OpenStore): void {
  describe(`checkpoints after every step: ${name}`, () => {
    const opened: RunStore[] = [];
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });
    async function processes(clock: TestClock) {
      const [a, b] = [await open(clock), await open(clock)];
      opened.push(a, b);
      return [a, b] as const;
    }
    const newId = () => `run_${Math.random().toString(36).slice(2)}`;

    it('the result of a stored run or chat comes once its end is stored and its lease given up: 50 runs and 10 chats read back finished right after it', async () => {
      const clock = testClock();
      const [store] = await processes(clock);
      const world = { ledger: [], modelCalls: 0 };
      const runIds = Array.from({ length: 50 }, newId);
      const statuses = await Promise.all(
        runIds.map(async (runId) => {
          const run = agentOf(world).run('look up Ann', { store, runId, owner: 'w1', leaseMs: LEASE });
          await run.result;
          const stored = await store.loadRun(runId);
          return `${stored?.status} ${stored?.leaseOwner ?? 'free'}`;
        }),
      );
      expect(statuses).toEqual(runIds.map(() => 'finished free'));
      const chatIds = Array.from({ length: 10 }, newId);
      const chatStatuses = await Promise.all(
        chatIds.map(async (chatId) => {
          const chat = chatOf(world).run('Check Ann.', { store, chatId, owner: 'w1', leaseMs: LEASE });
          await chat.result;
          const stored = await store.loadRun(chatId);
          return `${stored?.status} ${stored?.leaseOwner ?? 'free'}`;
        }),
      );
      expect(chatStatuses).toEqual(chatIds.map(() => 'finished free'));
      // startRunInStore's handle too.
      const durable = await startRunInStore(agentOf(world), 'look up Ann', { store, runId: newId(), owner: 'w1', leaseMs: LEASE });
      await durable.run.result;
      expect((await store.loadRun(durable.run.runId))?.state).toMatchObject({ format: 'agentchart.run.finished', stopReason: 'completed' });
    });

    it('a run kept in the store checkpoints each step and writes its end; no journal entry without a checkpoint before it', async () => {
      const clock = testClock();
      const [store] = await processes(clock);
      const world = { ledger: [], modelCalls: 0 };
      const runId = newId();
      const run = agentOf(world).run('look up Ann', { store, runId, owner: 'w1', leaseMs: LEASE });
      const result = await run.result;
      expect(result.text).toBe('finished after 3 results');
      // The end is written and the lease given up in one transaction.
      await until(async () => {
        const run = await store.loadRun(runId);
        return run?.status === 'finished' && run.leaseOwner === undefined;
      });
      const stored = await store.loadRun(runId);
      expect(stored).toMatchObject({ status: 'finished', kind: 'run', name: 'clerk', leaseOwner: undefined });
      expect(stored?.state).toEqual({ format: 'agentchart.run.finished', stopReason: 'completed', text: 'finished after 3 results' });
      // Group commit: the start, the reply and the batch start go with the first call's `started` entry (the model
      // answers at once, before the start was written); the batch's end with the last result; the end.
      expect(stored?.version).toBe(3);
      expect((await store.listCalls(runId)).map((call) => [call.callId, call.status])).toEqual([
        ['s', 'finished'],
        ['n', 'finished'],
        ['r', 'finished'],
      ]);
      expect(world.ledger).toHaveLength(3);
    });

    it('group commit: a checkpoint is never stored without the results its transcript holds, nor a start without its batch', async () => {
      const clock = testClock();
      const [plain] = await processes(clock);
      const batches: { state: unknown; journal: readonly JournalWrite[] }[] = [];
      const written = writtenCheckpoints();
      const store = new Proxy(plain, {
        get: (target, property, receiver) =>
          property === 'writeBatch'
            ? (lease: RunLease, batch: RunWriteBatch) => {
                batches.push({ state: batch.state === undefined ? undefined : written(batch.state), journal: batch.journal ?? [] });
                return target.writeBatch(lease, batch);
              }
            : Reflect.get(target, property, receiver),
      });
      const world = { ledger: [], modelCalls: 0 };
      const runId = newId();
      const durable = await startRunInStore(agentOf(world), 'look up Ann', { store, runId, owner: 'w1', leaseMs: LEASE });
      await durable.run.result;
      await durable.settled;
      const results = new Set<string>();
      const started = new Set<string>();
      let batchKnown = new Set<string>();
      for (const batch of batches) {
        for (const write of batch.journal)
          (write.kind === 'result' ? results : started).add(write.kind === 'result' ? write.callId : write.start.callId);
        const machine = (
          batch.state as { machine?: { context: { messages: { role: string; toolCallId?: string }[]; batch: { calls: { id: string }[] } } } }
        )?.machine;
        if (machine !== undefined) {
          // Every tool result in the stored transcript is in the journal by this transaction at the latest.
          const answered = machine.context.messages.filter((message) => message.role === 'tool').map((message) => message.toolCallId as string);
          expect(answered.filter((id) => !results.has(id))).toEqual([]);
          batchKnown = new Set(machine.context.batch.calls.map((call) => call.id));
        }
        // A call is started in a transaction whose checkpoint (or an earlier one) knows its batch.
        for (const write of batch.journal) if (write.kind === 'started') expect(batchKnown.has(write.start.callId)).toBe(true);
      }
      expect([...started]).toEqual(['s', 'n', 'r']);
      expect([...results]).toEqual(['s', 'n', 'r']);
      // Four checkpoint points and six journal writes, in fewer transactions than writes.
      expect(batches.length).toBeLessThan(6);
    });

    it('a process that dies before a result it deferred is stored: the call is in doubt on resume, never run again silently', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      // The transaction carrying notify's result never commits: the process "dies" right there.
      const dying = new Proxy(first, {
        get: (target, property, receiver) =>
          property === 'writeBatch'
            ? (lease: RunLease, batch: RunWriteBatch) =>
                batch.journal?.some((write) => write.kind === 'result' && write.callId === 'n') ? never : target.writeBatch(lease, batch)
            : Reflect.get(target, property, receiver),
      });
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const runId = newId();
      const run = agentOf(dead).run('look up Ann', { store: dying, runId, owner: 'w1', leaseMs: LEASE });
      // The three calls run at once: their starts went in one transaction, their results wait in the one that never commits.
      await until(async () => dead.ledger.length === 3);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await first.listCalls(runId)).map((call) => [call.callId, call.status])).toEqual([
        ['s', 'started'],
        ['n', 'started'],
        ['r', 'started'],
      ]);
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const durable = await resumeRunFromStore(agentOf(world), runId, { store: second, owner: 'w2', leaseMs: LEASE });
      expect(durable.inDoubt.map((entry) => entry.callId)).toEqual(['s', 'n', 'r']);
      expect(durable.run.pendingApprovals.map((request) => request.id)).toEqual(['s', 'n']); // refresh is idempotent: no question
      await durable.recordResult('s', 'search Ann done (checked by hand)');
      await durable.recordResult('n', 'notify Ann done (checked by hand)');
      durable.run.approve('s');
      durable.run.approve('n');
      const result = await durable.run.result;
      expect(world.ledger).toEqual([`refresh Ann key=${runId}:r`]); // the idempotent one runs again, with its key; the others never
      expect(result.toolCalls.map((record) => record.content)).toEqual([
        'search Ann done (checked by hand)',
        'notify Ann done (checked by hand)',
        'refresh Ann done',
      ]);
      await durable.settled;
      run.abort();
    });

    it('resumes after a model reply: the recorded batch runs once, the reply is not asked for again', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const runId = newId();
      // The process dies after the reply was checkpointed, before any tool ran (a middleware that never goes on).
      const dying = agentOf(dead).run('look up Ann', { store: first, runId, owner: 'w1', leaseMs: LEASE, middleware: [() => never] });
      await until(async () => (await stateOf(first, runId))?.machine?.value === 'acting');
      expect(dead.ledger).toEqual([]);
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const { run, inDoubt } = await resumeRunFromStore(agentOf(world), runId, { store: second, owner: 'w2', leaseMs: LEASE });
      expect(inDoubt).toEqual([]);
      const result = await run.result;
      expect(result.text).toBe('finished after 3 results');
      expect(world.modelCalls).toBe(1); // only the answer: the reply with the calls came from the checkpoint
      expect(world.ledger).toEqual([`search Ann key=${runId}:s`, `notify Ann key=${runId}:n`, `refresh Ann key=${runId}:r`]);
      dying.abort();
    });

    it('resumes mid-batch: a recorded result is reused, an idempotent in-doubt call re-runs with its key, another is a person’s decision', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const runId = newId();
      const dying = agentOf(dead, new Set(['notify', 'refresh'])).run('look up Ann', { store: first, runId, owner: 'w1', leaseMs: LEASE });
      await until(async () => (await first.listCalls(runId)).map((call) => call.status).join() === 'finished,started,started');
      expect(dead.ledger).toHaveLength(3); // all three had their effect; two never reported back
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const durable = await resumeRunFromStore(agentOf(world), runId, { store: second, owner: 'w2', leaseMs: LEASE });
      expect(durable.inDoubt.map((entry) => entry.callId)).toEqual(['n', 'r']);
      expect(durable.run.pendingApprovals.map((request) => request.id)).toEqual(['n']); // refresh is idempotent: no question
      expect((await second.loadRun(runId))?.leaseOwner).toBe('w2');
      await durable.recordResult('n', 'notify Ann done (checked by hand)');
      durable.run.approve('n');
      const result = await durable.run.result;
      expect(world.modelCalls).toBe(1);
      expect(world.ledger).toEqual([`refresh Ann key=${runId}:r`]); // search: recorded; notify: recorded by hand
      expect(result.toolCalls.map((record) => record.content)).toEqual(['search Ann done', 'notify Ann done (checked by hand)', 'refresh Ann done']);
      await durable.settled;
      expect((await second.loadRun(runId))?.status).toBe('finished');
      dying.abort();
    });

    it('a tool that threw is recorded as failed: resumed, it is not in doubt, not run again, and the model hears the same failure', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const runId = newId();
      const agentWith = (world: World, hangRefresh: boolean) =>
        createAgent({
          name: 'clerk',
          model: scriptedModel((request) =>
            request.messages.at(-1)?.role === 'tool'
              ? { text: 'done' }
              : {
                  toolCalls: [
                    { id: 'c', name: 'charge', arguments: { to: 'Ann' } },
                    { id: 'r', name: 'refresh', arguments: { to: 'Ann' } },
                  ],
                },
          ),
          tools: [
            defineTool({
              name: 'charge',
              description: 'Charges a card.',
              parameters: z.object({ to: z.string() }),
              execute: ({ to }) => {
                world.ledger.push(`charge ${to}`);
                throw new ToolError('The card was declined.');
              },
            }),
            defineTool({
              name: 'refresh',
              description: 'Refreshes.',
              parameters: z.object({ to: z.string() }),
              idempotent: true,
              execute: async ({ to }) => {
                world.ledger.push(`refresh ${to}`);
                if (hangRefresh) await never;
                return 'refreshed';
              },
            }),
          ],
        });
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const dying = agentWith(dead, true).run('charge Ann', { store: first, runId, owner: 'w1', leaseMs: LEASE });
      await until(async () => (await first.listCalls(runId)).map((call) => call.status).join() === 'finished,started');
      expect((await first.listCalls(runId))[0]?.result).toEqual({
        'agentchart.thrown': { name: 'ToolError', code: 'TOOL_ERROR', message: 'The card was declined.' },
      });
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const durable = await resumeRunFromStore(agentWith(world, false), runId, { store: second, owner: 'w2', leaseMs: LEASE });
      expect(durable.inDoubt.map((entry) => entry.callId)).toEqual(['r']);
      expect(durable.run.pendingApprovals).toEqual([]);
      const result = await durable.run.result;
      expect(result.toolCalls.map((record) => [record.content, record.isError])).toEqual([
        ['The card was declined.', true],
        ['refreshed', false],
      ]);
      expect(world.ledger).toEqual(['refresh Ann']);
      expect(dead.ledger).toEqual(['charge Ann', 'refresh Ann']);
      dying.abort();
    });

    it('resumes before a model call: the call in flight is made again, the tools before it are not', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const runId = newId();
      const dying = agentOf(dead, new Set(['model2'])).run('look up Ann', { store: first, runId, owner: 'w1', leaseMs: LEASE });
      await until(async () => {
        const state = await stateOf(first, runId);
        return state?.machine?.value === 'stepDone' && state.machine.context.step === 1;
      });
      await until(async () => dead.modelCalls === 2);
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const run = agentOf(world).resume(runId, { store: second, owner: 'w2', leaseMs: LEASE });
      const result = await run.result;
      expect(result.text).toBe('finished after 3 results');
      expect(result.steps).toBe(2);
      expect(world.modelCalls).toBe(1);
      expect(world.ledger).toEqual([]);
      expect(dead.ledger).toHaveLength(3);
      dying.abort();
    });

    it('resumes a wait for approval (resumePending): it waits again, and the approved call runs once', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const runId = newId();
      // An agent of its own: resumePending resumes only its runs (the other tests leave runs of "clerk" behind).
      const dying = agentOf(dead, new Set(), undefined, 'cashier').run('pay Bob', { store: first, runId, owner: 'w1', leaseMs: LEASE });
      await until(async () => (await first.loadRun(runId))?.status === 'waiting');
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const { resumed } = await resumePending({
        store: second,
        owner: 'w2',
        leaseMs: LEASE,
        agents: [agentOf(world, new Set(), undefined, 'cashier')],
      });
      expect(resumed.map((each) => each.run.runId)).toEqual([runId]);
      const mine = resumed[0];
      expect(mine?.run.pendingApprovals.map((request) => request.id)).toEqual(['pay']);
      mine?.run.approve('pay');
      expect((await mine?.run.result)?.text).toBe('finished after 1 results');
      expect(world.ledger).toEqual([`pay Bob key=${runId}:pay`]);
      expect(world.modelCalls).toBe(1);
      for (const each of resumed) each.run.abort();
      dying.abort();
    });

    it('one owner at a time: a second process gets RUN_OWNED_ELSEWHERE while the lease holds', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const runId = newId();
      const running = agentOf({ ledger: [], modelCalls: 0 }, new Set(['model1'])).run('look up Ann', {
        store: first,
        runId,
        owner: 'w1',
        leaseMs: LEASE,
      });
      await until(async () => (await stateOf(first, runId)) !== undefined);
      const other = agentOf({ ledger: [], modelCalls: 0 });
      await expect(resumeRunFromStore(other, runId, { store: second, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
        code: 'RUN_OWNED_ELSEWHERE',
        owner: 'w1',
      });
      await expect(other.resume(runId, { store: second, owner: 'w2' }).result).rejects.toMatchObject({ code: 'RUN_OWNED_ELSEWHERE' });
      await expect(other.run('again', { store: second, runId }).result).rejects.toMatchObject({ code: 'RUN_ALREADY_EXISTS' });
      running.abort();
    });

    it('fencing: an owner that lost its lease mid-batch fails with RUN_LEASE_LOST and executes nothing more; nothing runs twice', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const paused = { ledger: [] as string[], modelCalls: 0 };
      const runId = newId();
      let wake: () => void = () => {};
      const wakeUp = new Promise<void>((resolve) => (wake = resolve));
      // w1 pauses inside `search` (a GC pause, a suspended VM) before the other calls started.
      const slowSearch = defineTool({
        name: 'search',
        description: 'The search tool.',
        parameters: z.object({ to: z.string() }),
        execute: async ({ to }, ctx) => {
          await wakeUp;
          paused.ledger.push(`search ${to} key=${ctx.idempotencyKey}`);
          return `search ${to} done`;
        },
      });
      const pausedAgent = createAgent({
        name: 'clerk',
        model: scriptedModel([
          { toolCalls: [{ id: 's', name: 'search', arguments: { to: 'Ann' } }] },
          { toolCalls: [{ id: 'n', name: 'notify', arguments: { to: 'Ann' } }] },
          { text: 'never' },
        ]),
        tools: [slowSearch, ...agentOf(paused).tools.filter((tool) => tool.name !== 'search')],
      });
      const stale = pausedAgent.run('look up Ann', { store: first, runId, owner: 'w1', leaseMs: LEASE });
      await until(async () => (await first.listCalls(runId)).length === 1);
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const taker = await resumeRunFromStore(agentOf(world), runId, { store: second, owner: 'w2', leaseMs: LEASE });
      expect(taker.inDoubt.map((entry) => entry.callId)).toEqual(['s']);
      taker.run.reject('s', 'checked: it did not run');
      expect((await taker.run.result).stopReason).toBe('completed');
      wake(); // w1 wakes up: its effect lands, but its result is fenced off and it goes no further
      const result = await stale.result;
      expect(result).toMatchObject({ stopReason: 'error', error: { code: 'RUN_LEASE_LOST' } });
      expect(paused.modelCalls).toBe(0);
      expect(paused.ledger).toEqual([`search Ann key=${runId}:s`]); // never notify: w1 made no second model call
      expect(world.ledger).toEqual([]);
      expect((await second.loadRun(runId))?.status).toBe('finished');
    });

    it('a chat kept in the store: checkpoints every turn and step, journals every call under the chat, writes its end', async () => {
      const clock = testClock();
      const [store] = await processes(clock);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const chatId = newId();
      const run = chatOf(world).run('look up Ann', { store, chatId, owner: 'w1', leaseMs: LEASE });
      const result = await run.result;
      expect(result.reason).toBe('max-rounds');
      expect(result.turns.map((turn) => turn.speaker)).toEqual(['clerk', 'checker', 'clerk']);
      await until(async () => (await store.loadRun(chatId))?.status === 'finished');
      expect((await store.loadRun(chatId))?.state).toEqual({ format: 'agentchart.chat.finished', reason: 'max-rounds', lastSpeaker: 'clerk' });
      const calls = await store.listCalls(chatId);
      expect(calls).toHaveLength(6); // two clerk turns, three calls each: one journal, ids unique within the chat
      expect(new Set(calls.map((call) => call.callId)).size).toBe(6);
      expect(calls.every((call) => call.status === 'finished')).toBe(true);
      // Journal ids are `<turn's run id>/<call id>`; the second turn's model repeated the ids, so its calls got their own.
      expect(calls.map((call) => call.callId.replace(/^[^/]+\//, ''))).toEqual(['s', 'n', 'r', 's~2', 'n~2', 'r~2']);
      expect(new Set(calls.map((call) => call.callId.split('/')[0])).size).toBe(2);
      expect(world.ledger).toHaveLength(6);
    });

    it('a chat resumed mid-turn: the speaking agent goes on from its batch; recorded calls are not run again', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const chatId = newId();
      const dying = chatOf(dead, new Set(['notify', 'refresh'])).run('look up Ann', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
      await until(async () => (await first.listCalls(chatId)).map((call) => call.status).join() === 'finished,started,started');
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const durable = await resumeChatFromStore(chatOf(world), chatId, { store: second, owner: 'w2', leaseMs: LEASE });
      expect(durable.inDoubt.map((entry) => entry.callId)).toEqual(['n', 'r']);
      expect(durable.chat.waiting()).toMatchObject({ kind: 'approval', speaker: 'clerk', requests: [{ id: 'n', toolName: 'notify' }] });
      durable.chat.approve('n'); // a person checked: run it again (same idempotency key)
      const result = await durable.chat.result;
      expect(result.turns.map((turn) => turn.speaker)).toEqual(['clerk', 'checker', 'clerk']);
      const runId = (await second.listCalls(chatId))[0]?.callId.split('/')[0];
      // Turn 1: search recorded (not run again), notify approved, refresh idempotent; turn 3: all three once.
      expect(world.ledger.slice(0, 2)).toEqual([`notify Ann key=${runId}:n`, `refresh Ann key=${runId}:r`]);
      expect(world.ledger.filter((line) => line.startsWith('search'))).toHaveLength(1);
      expect(world.ledger).toHaveLength(5);
      await durable.settled;
      expect((await second.loadRun(chatId))?.status).toBe('finished');
      dying.abort();
    });

    it('a chat resumed during a speaker’s model call makes that call again, and earlier turns stay as they were', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const chatId = newId();
      // clerk: model calls 1 and 2; checker: call 3 never returns.
      const dying = chatOf(dead, new Set(['checker3'])).run('look up Ann', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
      await until(async () => dead.modelCalls === 3);
      await until(
        async () => ((await first.loadRun(chatId))?.state as { waiting?: { speaker?: string } } | undefined)?.waiting?.speaker === 'checker',
      );
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const chat = chatOf(world).resume(chatId, { store: second, owner: 'w2', leaseMs: LEASE });
      const result = await chat.result;
      expect(result.turns.map((turn) => turn.speaker)).toEqual(['clerk', 'checker', 'clerk']);
      expect(world.modelCalls).toBe(3); // checker again, then clerk's two calls of turn 3
      expect(dead.ledger).toHaveLength(3);
      expect(world.ledger).toHaveLength(3); // turn 3 only
      dying.abort();
    });

    it('a chat killed in the second turn of a resident agent resumes from that turn’s last step; one actor per agent', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const chatId = newId();
      let agentActors = 0;
      const inspect = (event: InspectionEvent) => {
        if (event.type === '@xstate.actor' && (event.actorRef as { logic?: { id?: string } }).logic?.id === 'agent') agentActors += 1;
      };
      // clerk: calls 1 and 2 (turn 1); checker: call 3; clerk's turn 3: call 4 runs its batch, call 5 never returns.
      const dying = chatOf(dead, new Set(['model5'])).run('look up Ann', { store: first, chatId, owner: 'w1', leaseMs: LEASE, inspect });
      await until(async () => dead.modelCalls === 5);
      // The batch's results are stored with the checkpoint after it, written while call 5 is under way.
      await until(async () => (await first.listCalls(chatId)).filter((call) => call.status === 'finished').length === 6);
      expect(agentActors).toBe(2); // clerk (both its turns) and checker
      expect(dead.ledger).toHaveLength(6);
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const chat = chatOf(world).resume(chatId, { store: second, owner: 'w2', leaseMs: LEASE });
      const result = await chat.result;
      expect(result.turns.map((turn) => turn.speaker)).toEqual(['clerk', 'checker', 'clerk']);
      expect(world.modelCalls).toBe(1); // only the answer of turn 3 is asked for again
      expect(world.ledger).toEqual([]); // both batches ran once, in the dead process
      expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'finished after 6 results' }); // its view holds both turns' results
      dying.abort();
    });

    it('a chat waiting for a person (resumePending) waits again; their turn goes on', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const dead = { ledger: [] as string[], modelCalls: 0 };
      const chatId = newId();
      const dying = chatOf(dead, new Set(), { withPerson: true, name: 'boardroom' }).run('look up Ann', {
        store: first,
        chatId,
        owner: 'w1',
        leaseMs: LEASE,
      });
      await until(async () => (await first.loadRun(chatId))?.status === 'waiting');
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[], modelCalls: 0 };
      const { chats } = await resumePending({
        store: second,
        owner: 'w2',
        leaseMs: LEASE,
        chats: [chatOf(world, new Set(), { withPerson: true, name: 'boardroom' })],
      });
      expect(chats.map((each) => each.chat.chatId)).toEqual([chatId]);
      const [resumed] = chats;
      expect(resumed?.chat.waiting()).toEqual({ kind: 'human', speaker: 'boss' });
      resumed?.chat.say('Thanks.');
      const result = await resumed?.chat.result;
      expect(result?.turns.map((turn) => turn.speaker)).toEqual(['clerk', 'checker', 'boss']);
      expect(result?.messages.at(-1)).toEqual({ role: 'user', name: 'boss', content: 'Thanks.' });
      expect(world).toEqual({ ledger: [], modelCalls: 0 });
      dying.abort();
    });

    it('signed checkpoints: an edited stored checkpoint is refused (SNAPSHOT_TAMPERED) and executes nothing', async () => {
      const clock = testClock();
      const [first, second] = await processes(clock);
      const key = 'a-secret-of-at-least-16-bytes';
      const runId = newId();
      const dying = agentOf({ ledger: [], modelCalls: 0 }, new Set(['model2']), key).run('look up Ann', {
        store: first,
        runId,
        owner: 'w1',
        leaseMs: LEASE,
      });
      await until(async () => {
        const state = await stateOf(first, runId);
        return state?.machine?.value === 'stepDone' && state.machine.context.step === 1;
      });
      clock.advance(LEASE + 1);
      const lease = await first.acquireLease(runId, 'editor', LEASE);
      const state = (await first.loadRun(runId))?.state as { signature: string; machine: { context: { toolCallCount: number } } };
      expect(state.signature).toMatch(/^hmac-sha256:/);
      expect(state.machine.context.toolCallCount).toBe(3);
      state.machine.context.toolCallCount = 0;
      await first.saveState(lease, { status: 'running', state });
      await first.releaseLease(lease);
      const world = { ledger: [] as string[], modelCalls: 0 };
      await expect(resumeRunFromStore(agentOf(world, new Set(), key), runId, { store: second, owner: 'w2' })).rejects.toMatchObject({
        code: 'SNAPSHOT_TAMPERED',
      });
      expect(world).toEqual({ ledger: [], modelCalls: 0 });
      dying.abort();
    });
  });
}
