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
  let durable;
  try {
    durable = await resumeRunFromStore(agent, runId, { store, owner: `worker-${process.pid}`, leaseMs });
  } catch (error) {
    if (!(error instanceof RunOwnedElsewhereError)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 20)); // a killed owner's lease runs out
    continue;
  }
  say('resumed');
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
  await durable.run.result;
  await durable.settled;
}
await store.close();
say('done');
