import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStore } from '@agentchart/core';
import { createAgent, createGroupChat, humanAgent, resumePending, resumeRunFromStore } from '@agentchart/actors';
import { argumentsHash } from '@agentchart/actors/internal';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { testClock } from '../store/runStoreContract.js';
import { untilStored } from '../support/rawSqlBackends.js';
import { journaledTool } from './journaledTool.js';

const LEASE = 60_000;
const scratch = mkdtempSync(join(tmpdir(), 'agentchart-damaged-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function payer(ledger: string[], snapshotKey?: string) {
  return createAgent({
    name: 'payer',
    model: scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'paid' } : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: 'Bob' } }] },
    ),
    tools: [journaledTool('pay', { approval: 'always' }, (to) => ledger.push(`pay ${to}`))],
    ...(snapshotKey === undefined ? {} : { snapshotKey }),
  });
}

async function overwrite(store: RunStore, runId: string, state: unknown) {
  const lease = await store.acquireLease(runId, 'editor', LEASE);
  await store.saveState(lease, { status: 'running', state });
  await store.releaseLease(lease);
}

for (const snapshotKey of [undefined, 'a-secret-of-at-least-16-bytes']) {
  describe(`damaged stored rows are a clear error for that row only (${snapshotKey === undefined ? 'unsigned' : 'signed'})`, () => {
    it('a state that is JSON null, or a batch holding a null call, is RUN_SNAPSHOT_INVALID; resumePending lists them in skipped and resumes the rest', async () => {
      const clock = testClock();
      const path = join(scratch, `${snapshotKey === undefined ? 'plain' : 'signed'}.db`);
      const store = await createSqliteRunStore({ path, now: clock.now });
      try {
        const ledger: string[] = [];
        const chat = createGroupChat({
          name: 'desk',
          agents: [humanAgent({ name: 'boss' }), createAgent({ name: 'clerk', model: scriptedModel(() => ({ text: 'ok' })) })],
          speakerSelection: 'round_robin',
          maxRounds: 3,
          ...(snapshotKey === undefined ? {} : { snapshotKey }),
        });
        const runs = ['healthy', 'null-state', 'null-call'].map((runId) =>
          payer(ledger, snapshotKey).run('pay Bob', { store, runId, owner: 'w1', leaseMs: LEASE }),
        );
        const chats = ['chat-healthy', 'chat-null'].map((chatId) => chat.run('Go.', { store, chatId }));
        await untilStored(async () => {
          const rows = await Promise.all([...['healthy', 'null-state', 'null-call', 'chat-healthy', 'chat-null'].map((id) => store.loadRun(id))]);
          return rows.every((row) => row?.status === 'waiting');
        });
        const nullCall = structuredClone((await store.loadRun('null-call'))?.state) as { machine: { context: { batch: { calls: unknown[] } } } };
        nullCall.machine.context.batch.calls[0] = null;
        clock.advance(LEASE + 1); // the first process is gone
        await overwrite(store, 'null-state', null);
        await overwrite(store, 'null-call', nullCall);
        await overwrite(store, 'chat-null', null);

        await expect(resumeRunFromStore(payer(ledger, snapshotKey), 'null-state', { store, owner: 'w2' })).rejects.toMatchObject({
          code: snapshotKey === undefined ? 'RUN_SNAPSHOT_INVALID' : 'SNAPSHOT_TAMPERED',
        });
        const pending = await resumePending({ store, owner: 'w2', leaseMs: LEASE, agents: [payer(ledger, snapshotKey)], chats: [chat] });
        expect(pending.resumed.map((durable) => durable.run.runId)).toEqual(['healthy']);
        expect(pending.chats.map((durable) => durable.chat.chatId)).toEqual(['chat-healthy']);
        expect(pending.skipped.map((skipped) => [skipped.runId, skipped.error?.code]).sort()).toEqual([
          ['chat-null', snapshotKey === undefined ? 'GROUP_CHAT_SNAPSHOT_INVALID' : 'SNAPSHOT_TAMPERED'],
          ['null-call', snapshotKey === undefined ? 'RUN_SNAPSHOT_INVALID' : 'SNAPSHOT_TAMPERED'],
          ['null-state', snapshotKey === undefined ? 'RUN_SNAPSHOT_INVALID' : 'SNAPSHOT_TAMPERED'],
        ]);
        for (const skipped of pending.skipped) expect(skipped.reason).not.toMatch(/TypeError|Cannot read properties/);
        const [healthy] = pending.resumed;
        healthy?.run.approve('call_1');
        expect((await healthy?.run.result)?.text).toBe('paid');
        expect(ledger).toEqual(['pay Bob']);
        for (const durable of pending.chats) durable.chat.abort();
        for (const run of [...runs, ...chats]) run.abort();
      } finally {
        await store.close();
      }
    });
  });
}

describe('a forged journal result', () => {
  it('`{"agentchart.thrown": null}` recorded for a call gives the model a clear message, not a TypeError; nothing runs', async () => {
    const clock = testClock();
    const store = await createSqliteRunStore({ path: join(scratch, 'forged.db'), now: clock.now });
    try {
      const ledger: string[] = [];
      const noter = () =>
        createAgent({
          name: 'noter',
          model: scriptedModel((request) =>
            request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ id: 'call_1', name: 'note', arguments: { to: 'Ann' } }] },
          ),
          tools: [journaledTool('note', {}, (to) => ledger.push(`note ${to}`))],
        });
      const never = new Promise<never>(() => {});
      const dying = noter().run('Note Ann.', { store, runId: 'forged', owner: 'w1', leaseMs: LEASE, middleware: [() => never] });
      await untilStored(async () => ((await store.loadRun('forged'))?.state as { machine?: { value: string } })?.machine?.value === 'acting');
      clock.advance(LEASE + 1);
      const lease = await store.acquireLease('forged', 'forger', LEASE);
      await store.recordCallStarted(lease, {
        callId: 'call_1',
        toolName: 'note',
        argumentsHash: argumentsHash({ to: 'Ann' }),
        idempotencyKey: 'forged:call_1',
      });
      await store.recordCallResult(lease, 'call_1', { 'agentchart.thrown': null });
      await store.releaseLease(lease);
      const { run } = await resumeRunFromStore(noter(), 'forged', { store, owner: 'w2', leaseMs: LEASE });
      const result = await run.result;
      const answer = result.messages.find((message) => message.role === 'tool');
      expect(answer?.content).toContain('its recorded failure is unreadable (a damaged journal entry), so it was not run again');
      expect(answer?.content).not.toMatch(/TypeError|Cannot read properties/);
      expect(ledger).toEqual([]);
      dying.abort();
    } finally {
      await store.close();
    }
  });
});
