import {
  type RunLease,
  RunLeaseLostError,
  type RunStore,
  type RunWriteBatch,
  type RunWriteBatchResult,
  type ToolCallJournalEntry,
} from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { RunWriter } from '../../packages/actors/src/durable/runWriter.js';

const lease: RunLease = { runId: 'run_1', owner: 'w1', token: 1, expiresAt: Number.MAX_SAFE_INTEGER };

/** A writer on `store` under the test's lease that ignores failures. */
function writerOn(store: RunStore): RunWriter {
  return new RunWriter(
    store,
    () => lease,
    () => {},
  );
}

/** What a fake store was asked to write, in order: each batch as its checkpoint's status and its journal writes. */
function fakeStore(options: { slow?: () => Promise<void>; fail?: unknown; releaseInBatch?: boolean } = {}) {
  const batches: string[][] = [];
  const entry = (callId: string): ToolCallJournalEntry => ({
    runId: lease.runId,
    callId,
    toolName: 'pay',
    argumentsHash: 'h',
    idempotencyKey: `${lease.runId}:${callId}`,
    status: 'started',
    result: undefined,
    startedToken: 1,
    startedAt: 0,
    finishedAt: undefined,
  });
  const store = {
    async writeBatch(_lease: RunLease, batch: RunWriteBatch): Promise<RunWriteBatchResult> {
      batches.push([
        ...(batch.state === undefined ? [] : [`checkpoint ${JSON.stringify('state' in batch.state ? batch.state.state : batch.state.delta)}`]),
        ...(batch.journal ?? []).map((write) => (write.kind === 'started' ? `start ${write.start.callId}` : `result ${write.callId}`)),
        ...(batch.release === true ? ['release'] : []),
      ]);
      await options.slow?.();
      if (options.fail !== undefined) throw options.fail;
      return {
        version: batch.state === undefined ? undefined : batches.length,
        journal: (batch.journal ?? []).map((write) => ({
          entry: entry(write.kind === 'started' ? write.start.callId : write.callId),
          created: true,
        })),
      };
    },
    async releaseLease(): Promise<void> {
      batches.push(['releaseLease']);
    },
    ...(options.releaseInBatch === undefined ? {} : { releaseInBatch: options.releaseInBatch }),
  } as unknown as RunStore;
  return { store, batches };
}

const start = (callId: string) => ({
  kind: 'started' as const,
  start: { callId, toolName: 'pay', argumentsHash: 'h', idempotencyKey: `k:${callId}` },
});
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('RunWriter: group commit', () => {
  it('writes the newest checkpoint and the journal start after it in one transaction; older checkpoints are never built', async () => {
    const { store, batches } = fakeStore();
    const writer = writerOn(store);
    const built: string[] = [];
    const build = (name: string) => () => {
      built.push(name);
      return name;
    };
    writer.checkpoint('running', build('reply'));
    writer.checkpoint('running', build('batch start'));
    const written = await writer.journal(start('call_1'), true);
    expect(written).toMatchObject({ created: true, entry: { callId: 'call_1' } });
    expect(batches).toEqual([['checkpoint "batch start"', 'start call_1']]);
    expect(built).toEqual(['batch start']);
  });

  it('keeps a deferred result for the next transaction, before the start that follows it', async () => {
    const { store, batches } = fakeStore();
    const writer = writerOn(store);
    await writer.journal(start('call_1'), true);
    void writer.journal({ kind: 'result', callId: 'call_1', result: 'paid' }, false);
    writer.checkpoint('running', () => 'batch end');
    writer.checkpoint('running', () => 'next batch');
    await writer.journal(start('call_2'), true);
    expect(batches).toEqual([['start call_1'], ['checkpoint "next batch"', 'result call_1', 'start call_2']]);
  });

  it('writes what nobody awaits soon, without being asked', async () => {
    const { store, batches } = fakeStore();
    const writer = writerOn(store);
    writer.checkpoint('waiting', () => 'waiting');
    expect(batches).toEqual([]);
    await nextTurn();
    await nextTurn();
    expect(batches).toEqual([['checkpoint "waiting"']]);
  });

  it('gathers the writes made while a transaction is in flight into the next one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { store, batches } = fakeStore({ slow: () => gate });
    const writer = writerOn(store);
    const first = writer.journal(start('call_1'), true);
    await nextTurn();
    const second = writer.journal(start('call_2'), true);
    writer.checkpoint('running', () => 'late');
    const third = writer.journal(start('call_3'), true);
    expect(batches).toEqual([['start call_1']]);
    release();
    await Promise.all([first, second, third]);
    expect(batches).toEqual([['start call_1'], ['checkpoint "late"', 'start call_2', 'start call_3']]);
  });

  it('an arbitrary write goes after what was queued before it, and before what comes after', async () => {
    const { store, batches } = fakeStore();
    const writer = writerOn(store);
    writer.checkpoint('running', () => 'before');
    await writer.write(async () => batches.push(['the end']));
    writer.checkpoint('running', () => 'after');
    await writer.idle();
    expect(batches).toEqual([['checkpoint "before"'], ['the end'], ['checkpoint "after"']]);
  });

  it('a failed transaction fails the run and every write waiting in it; later ones fail with the store’s error too', async () => {
    const lost = new RunLeaseLostError(lease.runId, lease.owner, lease.token, { currentOwner: 'w2', currentFence: 2, currentExpiresAt: null });
    const { store, batches } = fakeStore({ fail: lost });
    const failures: unknown[] = [];
    const writer = new RunWriter(
      store,
      () => lease,
      (error) => failures.push(error),
    );
    const result = writer.journal({ kind: 'result', callId: 'call_1', result: 'paid' }, false);
    writer.checkpoint('running', () => 'next');
    await expect(writer.journal(start('call_2'), true)).rejects.toBe(lost);
    await expect(result).rejects.toBe(lost);
    expect(failures).toEqual([lost]);
    await expect(writer.journal(start('call_3'), true)).rejects.toBe(lost);
    expect(failures).toEqual([lost, lost]);
    expect(batches).toEqual([['checkpoint "next"', 'result call_1', 'start call_2'], ['start call_3']]);
  });

  it('writes the end after the writes queued before it, and gives the lease up in its own transaction', async () => {
    const { store, batches } = fakeStore({ releaseInBatch: true });
    const writer = writerOn(store);
    await writer.journal(start('call_1'), true);
    void writer.journal({ kind: 'result', callId: 'call_1', result: 'paid' }, false);
    writer.checkpoint('running', () => 'batch end');
    await writer.end({ status: 'finished', state: 'the end' });
    expect(batches).toEqual([['start call_1'], ['checkpoint "batch end"', 'result call_1'], ['checkpoint "the end"', 'release']]);
  });

  it('gives the lease up right after the end on a store that cannot in the same transaction', async () => {
    const { store, batches } = fakeStore();
    const writer = writerOn(store);
    await writer.end({ status: 'finished', state: 'the end' });
    expect(batches).toEqual([['checkpoint "the end"'], ['releaseLease']]);
  });

  it('an end that fails rejects and fails nothing else: the run is over, a new owner writes its end', async () => {
    const lost = new RunLeaseLostError(lease.runId, lease.owner, lease.token, { currentOwner: 'w2', currentFence: 2, currentExpiresAt: null });
    const failures: unknown[] = [];
    const writer = new RunWriter(
      fakeStore({ fail: lost, releaseInBatch: true }).store,
      () => lease,
      (error) => failures.push(error),
    );
    await expect(writer.end({ status: 'finished', state: 'the end' })).rejects.toBe(lost);
    expect(failures).toEqual([]);
  });
});
