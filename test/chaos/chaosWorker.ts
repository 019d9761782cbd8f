/**
 * A crash-test worker: resumes the trial's stored run as soon as no other
 * owner holds it, plays the person who decides approvals and in-doubt calls
 * (an in-doubt call whose effect is in the ledger gets that result recorded
 * by hand; otherwise it is approved to run again), and exits when the run is
 * finished. The driver may SIGKILL it at any point.
 * Env: CHAOS_DB, CHAOS_LEDGER, CHAOS_RUN_ID, CHAOS_LEASE_MS.
 */
import { RunOwnedElsewhereError } from '@agentchart/core';
import { resumeRunFromStore } from '@agentchart/actors';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { chaosAgent, readLedger } from './chaosAgent.js';

const env = (name: string) => process.env[name] ?? '';
const ledger = env('CHAOS_LEDGER');
const runId = env('CHAOS_RUN_ID');
const leaseMs = Number(env('CHAOS_LEASE_MS'));
const store = await createSqliteRunStore({ path: env('CHAOS_DB'), busyTimeoutMs: 10_000 });
const agent = chaosAgent(ledger);
const say = (line: string) => process.stdout.write(`${line}\n`);

for (;;) {
  const stored = await store.loadRun(runId);
  if (stored === undefined || stored.status === 'finished') break;
  let durable: Awaited<ReturnType<typeof resumeRunFromStore>>;
  try {
    durable = await resumeRunFromStore(agent, runId, { store, owner: `worker-${process.pid}`, leaseMs });
  } catch (error) {
    if (!(error instanceof RunOwnedElsewhereError)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 20)); // a killed owner's lease runs out
    continue;
  }
  say('resumed');
  if (process.env.CHAOS_TRACE)
    say(
      `pid ${process.pid} pending ${durable.run.pendingApprovals.map((r) => r.id)} indoubt ${durable.inDoubt.map((e) => e.callId)} journal ${JSON.stringify((await store.listCalls(runId)).map((c) => [c.callId, c.status]))}`,
    );
  try {
    const pending = new Set(durable.run.pendingApprovals.map((request) => request.id));
    for (const entry of durable.inDoubt) {
      say(`indoubt ${entry.toolName} ${pending.has(entry.callId) || entry.toolName === 'refresh' ? 'surfaced' : 'unsurfaced'}`);
    }
    for (const request of durable.run.pendingApprovals) {
      const doubt = durable.inDoubt.find((entry) => entry.callId === request.id);
      if (doubt && readLedger(ledger).includes(`${doubt.idempotencyKey} ${doubt.toolName}`)) {
        await durable.recordResult(doubt.callId, `${doubt.toolName} Bob done (found in the ledger)`);
      }
      durable.run.approve(request.id);
    }
    const { stopReason } = await durable.run.result;
    await durable.settled;
    if (stopReason === 'aborted') say('leaselost'); // only a lost lease aborts here
  } catch (error) {
    // A loaded machine can delay a renewal past the lease: the run was fenced (and aborted). Take it again.
    const code = (error as { code?: string }).code;
    if (code !== 'RUN_LEASE_LOST' && code !== 'APPROVAL_NOT_PENDING') throw error;
    durable.run.abort();
    say('leaselost');
  }
}
await store.close();
say('done');
