import type { RunStore } from '@agentchart/core';
import { type AgentRun, createAgent, createGroupChat, humanAgent, resumeChatFromStore, resumeRunFromStore } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { rawSqlBackends, untilStored } from '../support/rawSqlBackends.js';
import { testClock } from '../store/runStoreContract.js';
import { journaledTool } from './journaledTool.js';
import { wholeCheckpoints } from '../support/writtenCheckpoints.js';

const KEY = 'a-secret-of-at-least-16-bytes';
const LEASE = 60_000;

const backends = rawSqlBackends('agentchart-sealed-');

/** A payer: its `pay` waits for approval and (with `gate`) does not return until the gate opens; every payment is in `ledger`. */
function payer(ledger: string[], gate?: Promise<void>) {
  return createAgent({
    name: 'payer',
    model: scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool'
        ? { text: 'paid' }
        : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: request.messages[0]?.content === 'pay Mallory' ? 'Mallory' : 'Bob' } }] },
    ),
    tools: [
      journaledTool('pay', { approval: 'always' }, async (to, ctx) => {
        ledger.push(`pay ${to} key=${ctx.idempotencyKey}`);
        await gate;
      }),
    ],
    snapshotKey: KEY,
  });
}

const machineValue = async (store: RunStore, runId: string) =>
  ((await store.loadRun(runId))?.state as { machine?: { value: string } } | undefined)?.machine?.value;

/** Writes `state` into `runId`'s row as its owner would (a lease, a save, the lease given up). */
async function overwrite(store: RunStore, runId: string, status: 'running' | 'waiting', state: unknown) {
  const lease = await store.acquireLease(runId, 'editor', LEASE);
  await store.saveState(lease, { status, state });
  await store.releaseLease(lease);
}

for (const [name, backendOf] of backends) {
  describe(`signed checkpoints name their row and the journal they rely on: ${name}`, () => {
    const backend = backendOf();
    const id = (what: string) => `${what}_${name}_${Math.random().toString(36).slice(2)}`;

    it("run X's approved `acting` checkpoint copied into run Y's row is refused (SNAPSHOT_TAMPERED): X's payment does not run again, Y's wait is not lost", async () => {
      const clock = testClock();
      const store = await backend.open(clock);
      try {
        const ledger: string[] = [];
        const [x, y] = [id('x'), id('y')];
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        // Whole checkpoints, so that one row's checkpoint is one value to copy (see checkpointChains.test.ts for chains).
        const runX = payer(ledger, gate).run('pay Bob', { store: wholeCheckpoints(store), runId: x, owner: 'w1', leaseMs: LEASE });
        const runY = payer(ledger).run('pay Mallory', { store: wholeCheckpoints(store), runId: y, owner: 'w1', leaseMs: LEASE });
        await untilStored(async () => (await machineValue(store, x)) === 'awaitingApproval' && (await machineValue(store, y)) === 'awaitingApproval');
        const ySnapshot = (await store.loadRun(y))?.state;
        await waitsFor(runX);
        runX.approve('call_1');
        await untilStored(async () => (await machineValue(store, x)) === 'acting');
        const acting = (await store.loadRun(x))?.state;
        release();
        await runX.result;
        expect(ledger).toEqual([`pay Bob key=${x}:call_1`]);

        clock.advance(LEASE + 1); // Y's process is gone
        await overwrite(store, y, 'running', acting);
        const other = await backend.open(clock);
        try {
          const after: string[] = [];
          await expect(resumeRunFromStore(payer(after), y, { store: other, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
            code: 'SNAPSHOT_TAMPERED',
            message: expect.stringContaining(`holds a checkpoint signed for the run "${x}"`),
          });
          expect(after).toEqual([]);
          expect(await other.listCalls(y)).toEqual([]);
          // Y's own checkpoint, put back, resumes: it waits for its own approval.
          await overwrite(other, y, 'waiting', ySnapshot);
          const resumed = await resumeRunFromStore(payer(after), y, { store: other, owner: 'w2', leaseMs: LEASE });
          expect(resumed.run.pendingApprovals).toMatchObject([{ id: 'call_1', arguments: { to: 'Mallory' } }]);
          resumed.run.abort();
          await resumed.settled;
        } finally {
          runY.abort();
          await other.close();
        }
      } finally {
        await store.close();
      }
    });

    it('a run rolled back to an older signed checkpoint with its journal rows deleted is refused (SNAPSHOT_TAMPERED): the call that ran does not run again', async () => {
      const store = await backend.open(testClock());
      try {
        const ledger: string[] = [];
        const runId = id('rollback');
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const run = payer(ledger, gate).run('pay Bob', { store: wholeCheckpoints(store), runId, owner: 'w1', leaseMs: LEASE });
        await untilStored(async () => (await machineValue(store, runId)) === 'awaitingApproval');
        await waitsFor(run);
        run.approve('call_1');
        // The batch's checkpoint is stored with the call's `started` entry, in one transaction.
        await untilStored(async () => (await machineValue(store, runId)) === 'acting' && (await store.listCalls(runId)).length === 1);
        const acting = (await store.loadRun(runId))?.state;
        release();
        expect((await run.result).text).toBe('paid');
        await untilStored(async () => (await store.loadRun(runId))?.status === 'finished');

        await overwrite(store, runId, 'running', acting);
        await backend.sql('DELETE FROM agentchart_tool_calls WHERE run_id = $1', [runId]);
        const after: string[] = [];
        await expect(resumeRunFromStore(payer(after), runId, { store, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
          code: 'SNAPSHOT_TAMPERED',
          message: expect.stringContaining('relies on 1 journal entries, and the journal holds 0'),
        });
        expect(after).toEqual([]);
        expect(ledger).toEqual([`pay Bob key=${runId}:call_1`]);
      } finally {
        await store.close();
      }
    });

    it("chat A's signed checkpoint copied into chat B's row is refused (SNAPSHOT_TAMPERED); B's own resumes", async () => {
      const clock = testClock();
      const store = await backend.open(clock);
      try {
        const office = () =>
          createGroupChat({
            name: 'office',
            agents: [humanAgent({ name: 'boss' }), createAgent({ name: 'clerk', model: scriptedModel(() => ({ text: 'ok' })) })],
            speakerSelection: 'round_robin',
            maxRounds: 3,
            snapshotKey: KEY,
          });
        const [a, b] = [id('chat_a'), id('chat_b')];
        const runA = office().run('Task A', { store, chatId: a });
        const runB = office().run('Task B', { store, chatId: b });
        await untilStored(async () => (await store.loadRun(a))?.status === 'waiting' && (await store.loadRun(b))?.status === 'waiting');
        const stateA = (await store.loadRun(a))?.state;
        const stateB = (await store.loadRun(b))?.state;
        clock.advance(LEASE + 1); // their process is gone
        await overwrite(store, b, 'waiting', stateA);
        await expect(resumeChatFromStore(office(), b, { store, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
          code: 'SNAPSHOT_TAMPERED',
          message: expect.stringContaining(`holds a checkpoint signed for the chat "${a}"`),
        });
        await overwrite(store, b, 'waiting', stateB);
        const resumed = await resumeChatFromStore(office(), b, { store, owner: 'w2', leaseMs: LEASE });
        expect(resumed.chat.waiting()).toEqual({ kind: 'human', speaker: 'boss' });
        expect(resumed.chat.snapshot().messages[0]).toMatchObject({ content: 'Task B' });
        resumed.chat.abort();
        await resumed.settled;
        runA.abort();
        runB.abort();
      } finally {
        await store.close();
      }
    });
  });
}

/** Until the run waits for approval in memory too. */
async function waitsFor(run: AgentRun): Promise<void> {
  for (let attempt = 0; attempt < 1000 && run.pendingApprovals.length === 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 2));
}
