import type { RunStore } from '@agentchart/core';
import { createAgent, createGroupChat, humanAgent, resumeChatFromStore, resumePending, resumeRunFromStore } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { rawSqlBackends, untilStored } from '../support/rawSqlBackends.js';
import { testClock } from '../store/runStoreContract.js';
import { journaledTool } from './journaledTool.js';

const KEY = 'a-secret-of-at-least-16-bytes';
const LEASE = 60_000;

const backends = rawSqlBackends('agentchart-chains-');

/** An agent that looks Ann and Bob up (two steps), then pays (waits for approval); every effect is in `ledger`. */
function payer(ledger: string[], snapshotKey?: string) {
  return createAgent({
    name: 'payer',
    model: scriptedModel((request) => {
      const results = request.messages.filter((message) => message.role === 'tool').length;
      if (results === 0) return { toolCalls: [{ id: 'look_ann', name: 'look', arguments: { to: 'Ann' } }] };
      if (results === 1) return { toolCalls: [{ id: 'look_bob', name: 'look', arguments: { to: 'Bob' } }] };
      if (results === 2) return { toolCalls: [{ id: 'pay_bob', name: 'pay', arguments: { to: 'Bob' } }] };
      return { text: 'paid' };
    }),
    tools: [
      journaledTool('look', {}, (to) => ledger.push(`look ${to}`)),
      journaledTool('pay', { approval: 'always' }, (to) => ledger.push(`pay ${to}`)),
    ],
    ...(snapshotKey === undefined ? {} : { snapshotKey }),
  });
}

/** A chat: the clerk looks Ann and Bob up, then the boss (a person) has the floor. */
function office(ledger: string[], snapshotKey?: string) {
  const clerk = createAgent({
    name: 'clerk',
    model: scriptedModel((request) => {
      const results = request.messages.filter((message) => message.role === 'tool').length;
      if (results === 0) return { toolCalls: [{ id: 'look_ann', name: 'look', arguments: { to: 'Ann' } }] };
      if (results === 1) return { toolCalls: [{ id: 'look_bob', name: 'look', arguments: { to: 'Bob' } }] };
      return { text: 'looked' };
    }),
    tools: [journaledTool('look', {}, (to) => ledger.push(`look ${to}`))],
  });
  return createGroupChat({
    name: 'office',
    agents: [clerk, humanAgent({ name: 'boss' })],
    speakerSelection: 'round_robin',
    maxRounds: 3,
    ...(snapshotKey === undefined ? {} : { snapshotKey }),
  });
}

/** Until the row waits, its checkpoint a chain of at least two deltas. */
async function waitsAsChain(store: RunStore, runId: string): Promise<void> {
  await untilStored(async () => {
    const stored = await store.loadRun(runId);
    return stored?.status === 'waiting' && (stored.stateChain?.deltas.length ?? 0) >= 2;
  });
}

for (const [name, backendOf] of backends) {
  describe(`checkpoint chains: ${name}`, () => {
    const backend = backendOf();
    const id = (what: string) => `${what}_${name}_${Math.random().toString(36).slice(2)}`;
    /** Swaps the versions of a row's first two delta rows (their order in the chain). */
    const swapFirstDeltas = async (runId: string) => {
      const first = `(SELECT MIN(version) FROM agentchart_state_deltas WHERE run_id = $1)`;
      await backend.sql(`UPDATE agentchart_state_deltas SET version = -1 WHERE run_id = $1 AND version = ${first}`, [runId]);
      await backend.sql(`UPDATE agentchart_state_deltas SET version = version - 1 WHERE run_id = $1 AND version = ${first}`, [runId]);
      await backend.sql(`UPDATE agentchart_state_deltas SET version = ${first} + 1 WHERE run_id = $1 AND version = -1`, [runId]);
    };

    for (const snapshotKey of [undefined, KEY]) {
      const signed = snapshotKey === undefined ? 'unsigned' : 'signed';

      it(`a ${signed} run resumed from its chain waits where it was and finishes; nothing runs twice`, async () => {
        const clock = testClock();
        const store = await backend.open(clock);
        try {
          const ledger: string[] = [];
          const runId = id('resumed');
          const first = payer(ledger, snapshotKey).run('pay Bob', { store, runId, owner: 'w1', leaseMs: LEASE });
          await waitsAsChain(store, runId);
          clock.advance(LEASE + 1); // its process is gone
          const resumed = await resumeRunFromStore(payer(ledger, snapshotKey), runId, { store, owner: 'w2', leaseMs: LEASE });
          expect(resumed.run.pendingApprovals.map((request) => request.id)).toEqual(['pay_bob']);
          resumed.run.approve('pay_bob');
          expect((await resumed.run.result).text).toBe('paid');
          expect(ledger).toEqual(['look Ann', 'look Bob', 'pay Bob']);
          expect(await store.loadRun(runId)).toMatchObject({ status: 'finished', state: { stopReason: 'completed' } });
          expect((await store.loadRun(runId))?.stateChain).toBeUndefined(); // the end is whole
          first.abort();
        } finally {
          await store.close();
        }
      });

      it(`a ${signed} run whose delta rows were removed or reordered is a clear error; resumePending skips it and resumes the rest`, async () => {
        const clock = testClock();
        const store = await backend.open(clock);
        try {
          const ledger: string[] = [];
          const [healthy, removed, reordered, unreadable] = ['healthy', 'removed', 'reordered', 'unreadable'].map(id) as [
            string,
            string,
            string,
            string,
          ];
          const runs = [healthy, removed, reordered, unreadable].map((runId) =>
            payer(ledger, snapshotKey).run('pay Bob', { store, runId, owner: 'w1', leaseMs: LEASE }),
          );
          for (const runId of [healthy, removed, reordered, unreadable]) await waitsAsChain(store, runId);
          await backend.sql(
            'DELETE FROM agentchart_state_deltas WHERE run_id = $1 AND version = (SELECT MIN(version) FROM agentchart_state_deltas WHERE run_id = $1)',
            [removed],
          );
          await swapFirstDeltas(reordered);
          await backend.sql(`UPDATE agentchart_state_deltas SET delta = 'not json' WHERE run_id = $1`, [unreadable]);
          clock.advance(LEASE + 1);
          const other = await backend.open(clock);
          try {
            for (const runId of [removed, reordered, unreadable]) {
              await expect(resumeRunFromStore(payer([], snapshotKey), runId, { store: other, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
                code: 'STORE_DATA_INVALID',
                message: expect.stringContaining(runId),
              });
            }
            const pending = await resumePending({ store: other, owner: 'w2', leaseMs: LEASE, agents: [payer([], snapshotKey)] });
            const mine = (list: readonly { runId: string }[]) => list.filter((entry) => entry.runId.includes(`_${name}_`));
            expect(mine(pending.resumed.map((durable) => durable.run)).map((run) => run.runId)).toContain(healthy);
            const skipped = pending.skipped.filter((entry) => [removed, reordered, unreadable].includes(entry.runId));
            expect(skipped.map((entry) => [entry.runId, entry.error?.code])).toEqual(
              [removed, reordered, unreadable].map((runId) => [runId, 'STORE_DATA_INVALID']),
            );
            for (const durable of pending.resumed) durable.run.abort();
            await Promise.all(pending.resumed.map((durable) => durable.settled));
          } finally {
            await other.close();
          }
          expect(ledger.filter((entry) => entry.startsWith('pay'))).toEqual([]);
          for (const run of runs) run.abort();
        } finally {
          await store.close();
        }
      });
    }

    it('a signed run whose delta was changed, or whose chain was copied from another row, is refused (SNAPSHOT_TAMPERED); nothing runs', async () => {
      const clock = testClock();
      const store = await backend.open(clock);
      try {
        const ledger: string[] = [];
        const [changed, source, target] = ['changed', 'source', 'target'].map(id) as [string, string, string];
        const runs = [changed, source, target].map((runId) => payer(ledger, KEY).run('pay Bob', { store, runId, owner: 'w1', leaseMs: LEASE }));
        for (const runId of [changed, source, target]) await waitsAsChain(store, runId);
        await backend.sql(`UPDATE agentchart_state_deltas SET delta = REPLACE(delta, 'look Bob done', 'look Eve done') WHERE run_id = $1`, [changed]);
        // The source's rows, whole checkpoint and deltas, put in the target's row.
        await backend.sql('DELETE FROM agentchart_state_deltas WHERE run_id = $1', [target]);
        await backend.sql(
          `UPDATE agentchart_runs SET state = (SELECT state FROM agentchart_runs WHERE run_id = $2),
             state_version = (SELECT state_version FROM agentchart_runs WHERE run_id = $2),
             version = (SELECT version FROM agentchart_runs WHERE run_id = $2) WHERE run_id = $1`,
          [target, source],
        );
        await backend.sql(
          'INSERT INTO agentchart_state_deltas (run_id, version, delta) SELECT $1, version, delta FROM agentchart_state_deltas WHERE run_id = $2',
          [target, source],
        );
        clock.advance(LEASE + 1);
        const before = ledger.length;
        await expect(resumeRunFromStore(payer(ledger, KEY), changed, { store, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
          code: 'SNAPSHOT_TAMPERED',
          message: expect.stringContaining('checkpoint delta'),
        });
        await expect(resumeRunFromStore(payer(ledger, KEY), target, { store, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
          code: 'SNAPSHOT_TAMPERED',
          message: expect.stringContaining(`signed for the run "${source}"`),
        });
        expect(ledger).toHaveLength(before);
        for (const run of runs) run.abort();
      } finally {
        await store.close();
      }
    });

    for (const snapshotKey of [undefined, KEY]) {
      it(`a ${snapshotKey === undefined ? 'unsigned' : 'signed'} chat kept as a chain resumes where it waited; one whose chain was damaged is refused`, async () => {
        const clock = testClock();
        const store = await backend.open(clock);
        try {
          const ledger: string[] = [];
          const [kept, damaged] = [id('chat_kept'), id('chat_damaged')];
          const chats = [kept, damaged].map((chatId) =>
            office(ledger, snapshotKey).run('Look them up.', { store, chatId, owner: 'w1', leaseMs: LEASE }),
          );
          for (const chatId of [kept, damaged]) await waitsAsChain(store, chatId);
          if (snapshotKey === undefined) await swapFirstDeltas(damaged);
          else
            await backend.sql(`UPDATE agentchart_state_deltas SET delta = REPLACE(delta, 'look Bob done', 'look Eve done') WHERE run_id = $1`, [
              damaged,
            ]);
          clock.advance(LEASE + 1);
          const resumed = await resumeChatFromStore(office(ledger, snapshotKey), kept, { store, owner: 'w2', leaseMs: LEASE });
          expect(resumed.chat.waiting()).toEqual({ kind: 'human', speaker: 'boss' });
          expect(resumed.chat.snapshot().messages.map((message) => message.content)).toContain('look Bob done');
          resumed.chat.say('Thanks.');
          await resumed.chat.result;
          expect((await store.loadRun(kept))?.status).toBe('finished');
          await expect(resumeChatFromStore(office(ledger, snapshotKey), damaged, { store, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
            code: snapshotKey === undefined ? 'STORE_DATA_INVALID' : 'SNAPSHOT_TAMPERED',
          });
          expect(ledger.filter((entry) => entry === 'look Bob')).toHaveLength(2); // once per chat, none again
          for (const chat of chats) chat.abort();
        } finally {
          await store.close();
        }
      });
    }
  });
}
