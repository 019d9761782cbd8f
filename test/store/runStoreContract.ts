import type { RunStore } from '@agentchart/core';
import { STORE_SCHEMA_VERSION } from '@agentchart/store';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';

/** A clock the test moves by hand: lease expiry without waiting. */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
}

export function testClock(start = 1_700_000_000_000): TestClock {
  let time = start;
  return { now: () => time, advance: (ms) => (time += ms) };
}

/** How a contract run opens its store and reaches under it. */
export interface StoreHarness {
  /** A store on the harness' database (every call opens another connection to the same data). */
  open(clock: TestClock): Promise<RunStore>;
  /** Records a schema migration newer than this release knows, as a newer agentchart would. */
  recordFutureMigration(version: number): Promise<void>;
  /** Undoes `recordFutureMigration`. */
  forgetMigration(version: number): Promise<void>;
  /** The newest schema version recorded in the database. */
  newestMigration(): Promise<number>;
}

const LEASE = 30_000;

/**
 * The behaviour every `RunStore` must have, run against SQLite and Postgres
 * alike (test/store/sqliteRunStore.test.ts, postgresRunStore.test.ts).
 */
export function describeRunStoreContract(name: string, harness: () => StoreHarness): void {
  describe(`RunStore contract: ${name}`, () => {
    const opened: RunStore[] = [];
    const clock = testClock();
    const open = async () => {
      const store = await harness().open(clock);
      opened.push(store);
      return store;
    };
    const newId = () => `run_${randomUUID()}`;
    const start = (callId: string, toolName = 'pay') => ({ callId, toolName, argumentsHash: `hash-${callId}`, idempotencyKey: `key-${callId}` });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    it('creates a run with the first lease (token 1) and refuses a second run with the same id', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      expect(lease).toEqual({ runId, owner: 'w1', token: 1, expiresAt: clock.now() + LEASE });
      const stored = await store.loadRun(runId);
      expect(stored).toMatchObject({
        runId,
        kind: 'run',
        name: 'payer',
        status: 'running',
        version: 0,
        state: undefined,
        leaseOwner: 'w1',
        leaseToken: 1,
      });
      await expect(store.createRun({ runId, kind: 'chat', name: 'x', owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
        code: 'RUN_ALREADY_EXISTS',
      });
      expect(await store.loadRun(newId())).toBeUndefined();
    });

    it('saves checkpoints with a growing version and reads back the same JSON', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'chat', name: 'team', owner: 'w1', leaseMs: LEASE });
      const state = { z: 1, a: ['é', '😀', null], nested: { b: true, a: 0.5 } };
      expect(await store.saveState(lease, { status: 'running', state })).toBe(1);
      expect(await store.saveState(lease, { status: 'waiting', state: { ...state, step: 2 } })).toBe(2);
      const stored = await store.loadRun(runId);
      expect(stored?.version).toBe(2);
      expect(stored?.status).toBe('waiting');
      expect(stored?.state).toEqual({ ...state, step: 2 });
      expect(Object.keys(stored?.state as object)).toEqual(['z', 'a', 'nested', 'step']);
      const again = await open();
      expect((await again.loadRun(runId))?.state).toEqual({ ...state, step: 2 });
    });

    it('refuses a second owner with RUN_OWNED_ELSEWHERE while the lease holds, and hands the run over once it expires', async () => {
      const first = await open();
      const second = await open();
      const runId = newId();
      const lease = await first.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      const refused = await second.acquireLease(runId, 'w2', LEASE).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'RUN_OWNED_ELSEWHERE', runId, owner: 'w1', expiresAt: lease.expiresAt });
      expect((refused as Error).message).toContain('owned by "w1"');
      clock.advance(LEASE);
      const taken = await second.acquireLease(runId, 'w2', LEASE);
      expect(taken).toEqual({ runId, owner: 'w2', token: 2, expiresAt: clock.now() + LEASE });
      expect(await first.acquireLease(runId, 'w1', LEASE).catch((error: unknown) => (error as { code: string }).code)).toBe('RUN_OWNED_ELSEWHERE');
    });

    it('fences every write of an owner that lost its lease: nothing is written or journaled', async () => {
      const first = await open();
      const second = await open();
      const runId = newId();
      const stale = await first.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      await first.saveState(stale, { status: 'running', state: { step: 1 } });
      await first.recordCallStarted(stale, start('call_a'));
      clock.advance(LEASE + 1); // w1 is paused past its lease
      const current = await second.acquireLease(runId, 'w2', LEASE);
      expect(current.token).toBe(2);

      await expect(first.saveState(stale, { status: 'running', state: { step: 99 } })).rejects.toMatchObject({
        code: 'RUN_LEASE_LOST',
        details: { runId, owner: 'w1', fence: 1, currentOwner: 'w2', currentFence: 2 },
      });
      await expect(first.recordCallStarted(stale, start('call_b'))).rejects.toMatchObject({ code: 'RUN_LEASE_LOST' });
      await expect(first.recordCallResult(stale, 'call_a', { content: 'late' })).rejects.toMatchObject({ code: 'RUN_LEASE_LOST' });
      await expect(first.renewLease(stale, LEASE)).rejects.toMatchObject({ code: 'RUN_LEASE_LOST' });
      await first.releaseLease(stale); // a stale release changes nothing

      const stored = await second.loadRun(runId);
      expect(stored).toMatchObject({ version: 1, state: { step: 1 }, leaseOwner: 'w2', leaseToken: 2 });
      const calls = await second.listCalls(runId);
      expect(calls.map((call) => [call.callId, call.status])).toEqual([['call_a', 'started']]);
      expect(await second.saveState(current, { status: 'running', state: { step: 2 } })).toBe(2);
    });

    it('fences an expired lease even when nobody took the run; acquiring again gives a new token', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      clock.advance(LEASE);
      await expect(store.saveState(lease, { status: 'running', state: {} })).rejects.toMatchObject({ code: 'RUN_LEASE_LOST' });
      const again = await store.acquireLease(runId, 'w1', LEASE);
      expect(again.token).toBe(2);
      expect(await store.saveState(again, { status: 'running', state: {} })).toBe(1);
    });

    it('re-acquiring by the same owner fences the older handle (two copies in one process)', async () => {
      const store = await open();
      const runId = newId();
      const older = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      const newer = await store.acquireLease(runId, 'w1', LEASE);
      expect(newer.token).toBe(2);
      await expect(store.saveState(older, { status: 'running', state: {} })).rejects.toMatchObject({ code: 'RUN_LEASE_LOST' });
      await expect(store.saveState(newer, { status: 'running', state: {} })).resolves.toBe(1);
    });

    it('renews a current lease and releases it so another owner can take the run at once', async () => {
      const first = await open();
      const second = await open();
      const runId = newId();
      const lease = await first.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      clock.advance(LEASE - 1);
      const renewed = await first.renewLease(lease, LEASE);
      expect(renewed).toEqual({ ...lease, expiresAt: clock.now() + LEASE });
      clock.advance(LEASE - 1);
      await expect(second.acquireLease(runId, 'w2', LEASE)).rejects.toMatchObject({ code: 'RUN_OWNED_ELSEWHERE' });
      await expect(first.saveState(renewed, { status: 'waiting', state: { ok: true } })).resolves.toBe(1);
      await first.releaseLease(renewed);
      await expect(first.saveState(renewed, { status: 'waiting', state: {} })).rejects.toMatchObject({ code: 'RUN_LEASE_LOST' });
      const taken = await second.acquireLease(runId, 'w2', LEASE);
      expect(taken.token).toBe(2);
    });

    it('lets exactly one of two owners racing for a free run take it', async () => {
      const [a, b] = [await open(), await open()];
      const runId = newId();
      const lease = await a.createRun({ runId, kind: 'run', name: 'payer', owner: 'w0', leaseMs: LEASE });
      await a.releaseLease(lease);
      const outcomes = await Promise.allSettled([a.acquireLease(runId, 'w1', LEASE), b.acquireLease(runId, 'w2', LEASE)]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'RUN_OWNED_ELSEWHERE' });
      expect((won[0] as PromiseFulfilledResult<{ token: number }>).value.token).toBe(2);
    });

    it('says RUN_NOT_FOUND for a run it does not have', async () => {
      const store = await open();
      const runId = newId();
      await expect(store.acquireLease(runId, 'w1', LEASE)).rejects.toMatchObject({ code: 'RUN_NOT_FOUND' });
      await expect(
        store.saveState({ runId, owner: 'w1', token: 1, expiresAt: clock.now() + LEASE }, { status: 'running', state: {} }),
      ).rejects.toMatchObject({
        code: 'RUN_NOT_FOUND',
      });
    });

    it('refuses a lease that is not a positive duration', async () => {
      const store = await open();
      await expect(store.createRun({ runId: newId(), kind: 'run', name: 'a', owner: 'w1', leaseMs: 0 })).rejects.toMatchObject({
        code: 'CONFIGURATION_INVALID',
      });
      await expect(store.acquireLease(newId(), 'w1', Number.NaN)).rejects.toMatchObject({ code: 'CONFIGURATION_INVALID' });
    });

    it('journals a call once: started, then its first result; a repeat start says what is recorded', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      const first = await store.recordCallStarted(lease, start('call_1'));
      expect(first.created).toBe(true);
      expect(first.entry).toEqual({
        runId,
        callId: 'call_1',
        toolName: 'pay',
        argumentsHash: 'hash-call_1',
        idempotencyKey: 'key-call_1',
        status: 'started',
        result: undefined,
        startedToken: 1,
        startedAt: clock.now(),
        finishedAt: undefined,
      });
      const repeat = await store.recordCallStarted(lease, { ...start('call_1'), argumentsHash: 'other' });
      expect(repeat).toEqual({ entry: first.entry, created: false });

      clock.advance(5);
      const finished = await store.recordCallResult(lease, 'call_1', { content: 'paid Bob 250', isError: false });
      expect(finished).toMatchObject({ status: 'finished', result: { content: 'paid Bob 250', isError: false }, finishedAt: clock.now() });
      const kept = await store.recordCallResult(lease, 'call_1', { content: 'paid again' });
      expect(kept.result).toEqual({ content: 'paid Bob 250', isError: false });
      expect((await store.recordCallStarted(lease, start('call_1'))).entry.status).toBe('finished');

      await expect(store.recordCallResult(lease, 'never', {})).rejects.toMatchObject({ code: 'CALL_NOT_STARTED' });
    });

    it('lists a run’s calls in start order and keeps in-doubt calls across a reopen', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      await store.recordCallStarted(lease, start('call_b', 'search'));
      await store.recordCallStarted(lease, start('call_a', 'pay')); // the same millisecond: the order is the order recorded
      await store.recordCallResult(lease, 'call_b', 'found');
      const reopened = await open();
      const calls = await reopened.listCalls(runId);
      expect(calls.map((call) => [call.callId, call.toolName, call.status, call.result])).toEqual([
        ['call_b', 'search', 'finished', 'found'],
        ['call_a', 'pay', 'started', undefined],
      ]);
      expect(await reopened.listCalls(newId())).toEqual([]);
    });

    it('writes a checkpoint and the journal writes beside it in one batch, in order', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      await store.recordCallStarted(lease, start('call_a'));
      clock.advance(3);
      const written = await store.writeBatch(lease, {
        state: { status: 'running', state: { step: 2 } },
        journal: [
          { kind: 'result', callId: 'call_a', result: { content: 'paid' } },
          { kind: 'started', start: start('call_b', 'notify') },
          { kind: 'result', callId: 'call_b', result: 'sent' }, // started earlier in the same batch
          { kind: 'started', start: { ...start('call_a'), argumentsHash: 'other' } }, // already journaled: nothing written
          { kind: 'result', callId: 'call_a', result: 'again' }, // already finished: keeps its first result
        ],
      });
      expect(written.version).toBe(1);
      expect(written.journal.map(({ entry, created }) => [entry.callId, entry.status, entry.result, created])).toEqual([
        ['call_a', 'finished', { content: 'paid' }, true],
        ['call_b', 'started', undefined, true],
        ['call_b', 'finished', 'sent', true],
        ['call_a', 'finished', { content: 'paid' }, false],
        ['call_a', 'finished', { content: 'paid' }, false],
      ]);
      expect(written.journal[0]!.entry.finishedAt).toBe(clock.now());
      expect(await store.loadRun(runId)).toMatchObject({ version: 1, status: 'running', state: { step: 2 } });
      const calls = await store.listCalls(runId);
      expect(calls.map((call) => [call.callId, call.toolName, call.argumentsHash, call.status])).toEqual([
        ['call_a', 'pay', 'hash-call_a', 'finished'],
        ['call_b', 'notify', 'hash-call_b', 'finished'],
      ]);
      // Without a checkpoint: the journal writes alone, fenced all the same.
      const alone = await store.writeBatch(lease, { journal: [{ kind: 'started', start: start('call_c') }] });
      expect(alone.version).toBeUndefined();
      expect(alone.journal.map(({ entry, created }) => [entry.callId, entry.status, created])).toEqual([['call_c', 'started', true]]);
      expect((await store.loadRun(runId))?.version).toBe(1);
    });

    it('writes checkpoints as deltas after a whole one, reads back the state they build, and drops them with the next whole one', async () => {
      const store = await open();
      expect(store.stateDeltas).toBe(true);
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      const base = { messages: ['task'], step: 0, draft: { text: '' } };
      expect((await store.writeBatch(lease, { state: { status: 'running', state: base } })).version).toBe(1);
      const first = {
        step: 1,
        ops: [
          ['append', ['messages'], ['reply']],
          ['set', ['step'], 1],
        ],
      } as const;
      const second = {
        step: 2,
        ops: [
          ['append', ['messages'], ['result']],
          ['delete', ['draft']],
        ],
      } as const;
      expect((await store.writeBatch(lease, { state: { status: 'running', delta: first } })).version).toBe(2);
      const written = await store.writeBatch(lease, {
        state: { status: 'waiting', delta: second },
        journal: [{ kind: 'started', start: start('call_a') }],
      });
      expect(written.version).toBe(3);
      expect(written.journal.map(({ created }) => created)).toEqual([true]);
      const stored = await store.loadRun(runId);
      expect(stored).toMatchObject({ version: 3, status: 'waiting', state: { messages: ['task', 'reply', 'result'], step: 1 } });
      expect(stored?.state).not.toHaveProperty('draft');
      expect(stored?.stateChain).toEqual({ base, deltas: [first, second] });
      // A whole checkpoint replaces the chain.
      await store.saveState(lease, { status: 'finished', state: { done: true } });
      const finished = await store.loadRun(runId);
      expect(finished).toMatchObject({ version: 4, status: 'finished', state: { done: true } });
      expect(finished?.stateChain).toBeUndefined();
      // Under a lost lease a delta writes nothing, its row neither.
      clock.advance(LEASE + 1);
      await expect(store.writeBatch(lease, { state: { status: 'running', delta: { step: 1, ops: [] } } })).rejects.toMatchObject({
        code: 'RUN_LEASE_LOST',
      });
      expect(await store.loadRun(runId)).toMatchObject({ version: 4, status: 'finished', state: { done: true } });
    });

    it('fences a batch as one write: under a lost or expired lease nothing of it is written', async () => {
      const first = await open();
      const second = await open();
      const runId = newId();
      const stale = await first.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      await first.writeBatch(stale, { state: { status: 'running', state: { step: 1 } }, journal: [{ kind: 'started', start: start('call_a') }] });
      clock.advance(LEASE); // expired, nobody took it yet
      await expect(first.writeBatch(stale, { journal: [{ kind: 'result', callId: 'call_a', result: 'late' }] })).rejects.toMatchObject({
        code: 'RUN_LEASE_LOST',
      });
      const current = await second.acquireLease(runId, 'w2', LEASE);
      const refused = first.writeBatch(stale, {
        state: { status: 'running', state: { step: 99 } },
        journal: [
          { kind: 'result', callId: 'call_a', result: 'late' },
          { kind: 'started', start: start('call_b') },
        ],
      });
      await expect(refused).rejects.toMatchObject({
        code: 'RUN_LEASE_LOST',
        details: { runId, owner: 'w1', fence: 1, currentOwner: 'w2', currentFence: 2 },
      });
      await expect(first.writeBatch(stale, { journal: [{ kind: 'started', start: start('call_c') }] })).rejects.toMatchObject({
        code: 'RUN_LEASE_LOST',
      });
      expect(await second.loadRun(runId)).toMatchObject({ version: 1, state: { step: 1 }, leaseOwner: 'w2', leaseToken: 2 });
      expect((await second.listCalls(runId)).map((call) => [call.callId, call.status])).toEqual([['call_a', 'started']]);
      const written = await second.writeBatch(current, { state: { status: 'waiting', state: { step: 2 } } });
      expect(written).toEqual({ version: 2, journal: [] });
    });

    it('gives the lease up in the batch’s own transaction (release), after its writes, whatever the batch holds', async () => {
      const store = await open();
      expect(store.releaseInBatch).toBe(true);
      const released = async (batch: (runId: string) => Parameters<RunStore['writeBatch']>[1]) => {
        const runId = newId();
        const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
        await store.writeBatch(lease, { state: { status: 'running', state: { step: 1 } }, journal: [{ kind: 'started', start: start('call_a') }] });
        const written = await store.writeBatch(lease, { ...batch(runId), release: true });
        const stored = await store.loadRun(runId);
        expect(stored).toMatchObject({ leaseOwner: undefined, leaseExpiresAt: undefined, leaseToken: 1 });
        // Given up: another owner takes the run at once, and the old lease writes nothing more.
        expect(await store.acquireLease(runId, 'w2', LEASE)).toMatchObject({ owner: 'w2', token: 2 });
        await expect(store.writeBatch(lease, { journal: [{ kind: 'started', start: start('call_z') }] })).rejects.toMatchObject({
          code: 'RUN_LEASE_LOST',
        });
        return { written, stored, calls: (await store.listCalls(runId)).map((call) => [call.callId, call.status, call.result]) };
      };
      // The end: a whole checkpoint and the last result.
      const end = await released(() => ({
        state: { status: 'finished', state: { done: true } },
        journal: [{ kind: 'result', callId: 'call_a', result: 'paid' }],
      }));
      expect(end.written).toMatchObject({
        version: 2,
        journal: [{ created: true, entry: { callId: 'call_a', status: 'finished', result: 'paid' } }],
      });
      expect(end.stored).toMatchObject({ status: 'finished', version: 2, state: { done: true } });
      expect(end.calls).toEqual([['call_a', 'finished', 'paid']]);
      // A delta, and a call started and finished in the same batch.
      const delta = await released(() => ({
        state: { status: 'running', delta: { step: 1, ops: [['set', ['step'], 2]] } },
        journal: [
          { kind: 'started', start: start('call_b') },
          { kind: 'result', callId: 'call_b', result: 'sent' },
        ],
      }));
      expect(delta.stored).toMatchObject({ status: 'running', version: 2, state: { step: 2 } });
      expect(delta.calls).toEqual([
        ['call_a', 'started', undefined],
        ['call_b', 'finished', 'sent'],
      ]);
      // Journal writes only.
      const journalOnly = await released(() => ({ journal: [{ kind: 'result', callId: 'call_a', result: 'paid' }] }));
      expect(journalOnly.stored).toMatchObject({ version: 1, state: { step: 1 } });
      expect(journalOnly.calls).toEqual([['call_a', 'finished', 'paid']]);
    });

    it('gives nothing up when a releasing batch’s lease is not current: nothing of it is written', async () => {
      const first = await open();
      const second = await open();
      const runId = newId();
      const stale = await first.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      clock.advance(LEASE);
      await second.acquireLease(runId, 'w2', LEASE);
      const refused = first.writeBatch(stale, { state: { status: 'finished', state: { done: true } }, release: true });
      await expect(refused).rejects.toMatchObject({ code: 'RUN_LEASE_LOST', details: { currentOwner: 'w2', currentFence: 2 } });
      expect(await second.loadRun(runId)).toMatchObject({ status: 'running', version: 0, leaseOwner: 'w2', leaseToken: 2 });
    });

    it('keeps the journal order of several starts in one batch beside a result and a delta, a start already journaled among them', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      await store.writeBatch(lease, {
        state: { status: 'running', state: { messages: [] } },
        journal: [
          { kind: 'started', start: start('call_a') },
          { kind: 'started', start: start('call_z') },
        ],
      });
      const written = await store.writeBatch(lease, {
        state: { status: 'running', delta: { step: 1, ops: [['append', ['messages'], ['a done']]] } },
        journal: [
          { kind: 'result', callId: 'call_a', result: 'paid' },
          { kind: 'started', start: start('call_b') },
          { kind: 'started', start: start('call_z') }, // already journaled: nothing written
          { kind: 'started', start: start('call_c') },
        ],
      });
      expect(written.version).toBe(2);
      expect(written.journal.map(({ entry, created }) => [entry.callId, entry.status, entry.result, created])).toEqual([
        ['call_a', 'finished', 'paid', true],
        ['call_b', 'started', undefined, true],
        ['call_z', 'started', undefined, false],
        ['call_c', 'started', undefined, true],
      ]);
      expect(written.journal[0]!.entry).toMatchObject({
        toolName: 'pay',
        argumentsHash: 'hash-call_a',
        idempotencyKey: 'key-call_a',
        startedToken: 1,
      });
      expect((await store.listCalls(runId)).map((call) => call.callId)).toEqual(['call_a', 'call_z', 'call_b', 'call_c']);
      expect(await store.loadRun(runId)).toMatchObject({ version: 2, state: { messages: ['a done'] } });
    });

    it('says CALL_NOT_STARTED for a result in a batch of a call never started, and writes nothing for it', async () => {
      const store = await open();
      const runId = newId();
      const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'w1', leaseMs: LEASE });
      const failed = store.writeBatch(lease, {
        state: { status: 'running', state: { step: 1 } },
        journal: [
          { kind: 'started', start: start('call_a') },
          { kind: 'result', callId: 'never', result: 'x' },
        ],
      });
      await expect(failed).rejects.toMatchObject({ code: 'CALL_NOT_STARTED', details: { runId, callId: 'never' } });
      // The batch's other writes stand.
      expect(await store.loadRun(runId)).toMatchObject({ version: 1, state: { step: 1 } });
      expect((await store.listCalls(runId)).map((call) => [call.callId, call.status])).toEqual([['call_a', 'started']]);
    });

    it('lists unfinished runs and chats, oldest first, of one kind on request', async () => {
      const store = await open();
      const ids = [newId(), newId(), newId(), newId()];
      const leases = [];
      for (const [index, runId] of ids.entries()) {
        clock.advance(1);
        leases.push(await store.createRun({ runId, kind: index === 1 ? 'chat' : 'run', name: `n${index}`, owner: 'w1', leaseMs: LEASE }));
      }
      await store.saveState(leases[2]!, { status: 'finished', state: { done: true } });
      await store.saveState(leases[3]!, { status: 'waiting', state: {} });
      const mine = (list: { runId: string }[]) => list.map((run) => run.runId).filter((runId) => ids.includes(runId));
      expect(mine(await store.listUnfinished())).toEqual([ids[0], ids[1], ids[3]]);
      expect(mine(await store.listUnfinished('chat'))).toEqual([ids[1]]);
      const summary = (await store.listUnfinished('run')).find((run) => run.runId === ids[3]);
      expect(summary).toMatchObject({ kind: 'run', name: 'n3', status: 'waiting', version: 1, leaseOwner: 'w1', leaseToken: 1 });
      expect(summary).not.toHaveProperty('state');
    });

    it('records its schema version, so a release that knows only older ones refuses the database', async () => {
      const store = await open();
      expect(store).toBeDefined();
      expect(await harness().newestMigration()).toBe(STORE_SCHEMA_VERSION);
      expect(STORE_SCHEMA_VERSION).toBeGreaterThanOrEqual(2); // deltas: a release before them would misread a chain
    });

    it('migrates once and refuses a database migrated by a newer release', async () => {
      await open();
      await open(); // a second open finds the schema in place
      await harness().recordFutureMigration(999);
      try {
        await expect(open()).rejects.toMatchObject({ code: 'STORE_SCHEMA_TOO_NEW', details: { schemaVersion: 999 } });
      } finally {
        await harness().forgetMigration(999);
      }
      await open();
    });
  });
}
