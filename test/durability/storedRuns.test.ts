import type { RunStore } from '@agentchart/core';
import { type Agent, createAgent, persistRunToStore, resumePending, resumeRunFromStore } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { waitForState } from '../toolControl/helpers.js';
import { type TestClock, testClock } from '../store/runStoreContract.js';
import { type JournaledToolOptions, journaledTool } from './journaledTool.js';

const dir = mkdtempSync(join(tmpdir(), 'agentchart-durable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const LEASE = 60_000;

/** Two "processes": two connections to one SQLite file, one clock. */
const opened: RunStore[] = [];
async function twoProcesses(clock: TestClock) {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  const a = await createSqliteRunStore({ path, now: clock.now });
  const b = await createSqliteRunStore({ path, now: clock.now });
  opened.push(a, b);
  return [a, b] as const;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/**
 * A payer: `pay` asks for approval, `notify` does not and is not idempotent,
 * `refresh` is idempotent. `hold` keeps a tool running (a crash mid-call).
 */
function payer(ledger: string[], hold?: Promise<void>): Agent {
  const tool = (name: string, options: JournaledToolOptions = {}) =>
    journaledTool(name, options, async (to, ctx) => {
      ledger.push(`${name} ${to} key=${ctx.idempotencyKey}`);
      if (hold) await hold;
    });
  const model = scriptedModel((request) =>
    request.messages.some((message) => message.role === 'tool')
      ? { text: 'finished' }
      : {
          toolCalls: [
            { id: 'pay', name: 'pay', arguments: { to: 'Bob' } },
            { id: 'note', name: 'notify', arguments: { to: 'Bob' } },
          ],
        },
  );
  return createAgent({ name: 'payer', model, tools: [tool('pay', { approval: 'always' }), tool('notify'), tool('refresh', { idempotent: true })] });
}

async function storedWaitingRun(store: RunStore): Promise<string> {
  const run = payer([]).run('Pay Bob');
  await waitForState(run, 'awaitingApproval');
  await persistRunToStore(run, { store, owner: 'web' });
  run.abort();
  return run.runId;
}

describe('runs resumed from a store', () => {
  it('one owner at a time: a second process gets RUN_OWNED_ELSEWHERE, the approved call runs once, the end is stored', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const runId = await storedWaitingRun(first);
    const ledger: string[] = [];
    const resumed = await resumeRunFromStore(payer(ledger), runId, { store: first, owner: 'w1', leaseMs: LEASE });
    await expect(resumeRunFromStore(payer(ledger), runId, { store: second, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
      code: 'RUN_OWNED_ELSEWHERE',
      owner: 'w1',
    });
    resumed.run.approve('pay');
    expect((await resumed.run.result).text).toBe('finished');
    await resumed.settled;
    expect(ledger).toEqual([`pay Bob key=${runId}:pay`, `notify Bob key=${runId}:note`]);
    const stored = await second.loadRun(runId);
    expect(stored).toMatchObject({ status: 'finished', state: { stopReason: 'completed', text: 'finished' }, leaseOwner: undefined });
    expect((await second.listCalls(runId)).map((call) => [call.callId, call.status, call.result])).toEqual([
      ['pay', 'finished', 'pay Bob done'],
      ['note', 'finished', 'notify Bob done'],
    ]);
    await expect(resumeRunFromStore(payer(ledger), runId, { store: second, owner: 'w2', leaseMs: LEASE })).rejects.toThrow(/is finished/);
  });

  it('a paused owner that lost its lease executes nothing; the new owner runs the call once', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const runId = await storedWaitingRun(first);
    const ledger: string[] = [];
    const paused = await resumeRunFromStore(payer(ledger), runId, { store: first, owner: 'w1', leaseMs: LEASE });
    clock.advance(LEASE + 1); // w1 is paused past its lease
    const current = await resumeRunFromStore(payer(ledger), runId, { store: second, owner: 'w2', leaseMs: LEASE });
    paused.run.approve('pay'); // w1 wakes up and goes on
    expect(await paused.run.result).toMatchObject({ stopReason: 'error', error: { code: 'RUN_LEASE_LOST' } });
    expect(ledger).toEqual([]);
    current.run.approve('pay');
    await current.run.result;
    expect(ledger.filter((line) => line.startsWith('pay'))).toEqual([`pay Bob key=${runId}:pay`]);
  });

  it('calls in doubt after a crash are a decision for a person: re-run, a result recorded by hand, or skipped', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const runId = await storedWaitingRun(first);
    const crashed: string[] = [];
    let release: () => void = () => {};
    const hold = new Promise<void>((resolve) => (release = resolve));
    const dying = await resumeRunFromStore(payer(crashed, hold), runId, { store: first, owner: 'w1', leaseMs: LEASE });
    dying.run.approve('pay');
    await new Promise((resolve) => setTimeout(resolve, 50)); // both calls started; the process "dies" here
    expect(crashed).toEqual([`pay Bob key=${runId}:pay`, `notify Bob key=${runId}:note`]);
    clock.advance(LEASE + 1);

    const ledger: string[] = [];
    const recovered = await resumeRunFromStore(payer(ledger), runId, { store: second, owner: 'w2', leaseMs: LEASE });
    expect(recovered.inDoubt.map((entry) => [entry.callId, entry.toolName, entry.idempotencyKey])).toEqual([
      ['pay', 'pay', `${runId}:pay`],
      ['note', 'notify', `${runId}:note`],
    ]);
    // notify never asked for approval: being in doubt, it is asked about now.
    expect(recovered.run.pendingApprovals.map((request) => request.id)).toEqual(['pay', 'note']);
    await recovered.recordResult('pay', 'pay Bob done (checked with the bank)');
    recovered.run.approve('pay');
    recovered.run.reject('note', 'already sent');
    const result = await recovered.run.result;
    expect(ledger).toEqual([]); // nothing ran again
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      'pay Bob done (checked with the bank)',
      'The call of "notify" was rejected by the user and did not run. Reason: already sent',
    ]);
    release(); // the dead process's calls end: their results are fenced off
    await dying.run.result;
    expect((await second.listCalls(runId)).find((call) => call.callId === 'pay')?.result).toBe('pay Bob done (checked with the bank)');
  });

  it('a run stopped by a lost lease settles only once its executing tools are done', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const runId = await storedWaitingRun(first);
    const ledger: string[] = [];
    let release: () => void = () => {};
    const hold = new Promise<void>((resolve) => (release = resolve));
    const losing = await resumeRunFromStore(payer(ledger, hold), runId, { store: first, owner: 'w1', leaseMs: LEASE });
    let settled = false;
    void losing.settled.then(() => (settled = true));
    losing.run.approve('pay');
    await new Promise((resolve) => setTimeout(resolve, 50)); // pay and notify are executing
    clock.advance(LEASE + 1);
    const taker = await resumeRunFromStore(payer([]), runId, { store: second, owner: 'w2', leaseMs: LEASE });
    losing.run.abort(); // what its lease keeper does when a renewal is refused
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false); // the tools it started still execute
    release(); // the effects land; their results are fenced off (RUN_LEASE_LOST)
    // Its result comes once its end is written (here refused: the new owner writes it).
    expect((await losing.run.result).stopReason).toBe('aborted');
    await losing.settled;
    expect(ledger).toHaveLength(2);
    expect((await second.listCalls(runId)).map((call) => call.status)).toEqual(['started', 'started']);
    taker.run.abort();
  });

  it('an approved in-doubt call runs again with the same idempotency key', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const runId = await storedWaitingRun(first);
    const dying = await resumeRunFromStore(payer([], new Promise(() => {})), runId, { store: first, owner: 'w1', leaseMs: LEASE });
    dying.run.approve('pay');
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.advance(LEASE + 1);
    const ledger: string[] = [];
    const recovered = await resumeRunFromStore(payer(ledger), runId, { store: second, owner: 'w2', leaseMs: LEASE });
    recovered.run.approve('pay');
    recovered.run.approve('note');
    await recovered.run.result;
    expect(ledger).toEqual([`pay Bob key=${runId}:pay`, `notify Bob key=${runId}:note`]);
    dying.run.abort();
  });

  it('a tampered stored snapshot is refused, executes nothing, and leaves the run free', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const runId = await storedWaitingRun(first);
    const lease = await first.acquireLease(runId, 'editor', LEASE);
    const stored = (await first.loadRun(runId))?.state as { machine: { context: { approvals: { decisions: object } } } };
    stored.machine.context.approvals.decisions = { pay: { approved: true } };
    await first.saveState(lease, { status: 'waiting', state: stored });
    await first.releaseLease(lease);
    const ledger: string[] = [];
    await expect(resumeRunFromStore(payer(ledger), runId, { store: second, owner: 'w2', leaseMs: LEASE })).rejects.toMatchObject({
      code: 'RUN_SNAPSHOT_INVALID',
      details: { path: 'machine.context.approvals.decisions' },
    });
    expect(ledger).toEqual([]);
    expect((await first.acquireLease(runId, 'w3', LEASE)).owner).toBe('w3');
  });

  it('resumePending resumes every unfinished run it may, and says why it skips the others', async () => {
    const clock = testClock();
    const [first, second] = await twoProcesses(clock);
    const free = await storedWaitingRun(first);
    const held = await storedWaitingRun(first);
    const holder = await resumeRunFromStore(payer([]), held, { store: second, owner: 'other', leaseMs: LEASE });
    const { resumed, skipped } = await resumePending({ store: first, owner: 'w1', leaseMs: LEASE, agents: [payer([])] });
    expect(resumed.map((each) => each.run.runId)).toEqual([free]);
    expect(skipped).toEqual([
      { runId: held, reason: expect.stringContaining('is owned by "other"'), error: expect.objectContaining({ code: 'RUN_OWNED_ELSEWHERE' }) },
    ]);
    for (const each of [...resumed, holder]) each.run.abort();
  });

  it('resumePending with waitForLeases takes over what a crashed owner held once its lease lapses; a live owner keeps its runs', async () => {
    // Real time: the lease must actually lapse.
    const path = join(dir, `${Math.random().toString(36).slice(2)}.db`);
    const [store, other] = [await createSqliteRunStore({ path }), await createSqliteRunStore({ path })];
    opened.push(store, other);
    const crashed = await storedWaitingRun(store);
    const kept = await storedWaitingRun(store);
    // The process before its restart: it took the lease under its own default owner, then died without renewing it.
    await store.acquireLease(crashed, 'host:4242', 400);
    const live = await resumeRunFromStore(payer([]), kept, { store: other, owner: 'host:5151', leaseMs: 400 });
    const started = Date.now();
    const { resumed, skipped } = await resumePending({ store, owner: 'host:6363', leaseMs: 400, agents: [payer([])], waitForLeases: true });
    expect(resumed.map((each) => each.run.runId)).toEqual([crashed]);
    expect(resumed[0]?.run.pendingApprovals.map((request) => request.id)).toEqual(['pay']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(skipped).toEqual([
      { runId: kept, reason: expect.stringContaining('is owned by "host:5151"'), error: expect.objectContaining({ code: 'RUN_OWNED_ELSEWHERE' }) },
    ]);
    for (const each of [...resumed, live]) each.run.abort();
    await Promise.all([...resumed, live].map((each) => each.settled));
  });
});
