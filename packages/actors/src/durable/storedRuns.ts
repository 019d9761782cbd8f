import { type AnyTool, RunOwnedElsewhereError, RunSnapshotError, type RunStore, RunStoreError, type ToolCallJournalEntry } from '@agentchart/core';
import type { Agent, ResumeOptions } from '../agent/createAgent.js';
import type { AgentRun } from '../agent/run/agentRun.js';
import { agentConfigOf } from '../participant/participantOf.js';
import { type PersistedRun, persistRun } from '../agent/run/runSnapshot.js';
import { signSnapshot, verifySnapshot } from '../agent/run/snapshotSignature.js';
import { journalMiddleware } from './journalMiddleware.js';
import { keepLease } from './leaseKeeper.js';

/** How long a lease lasts unless renewed (a crashed owner's run is free again after it). */
export const DEFAULT_LEASE_MS = 30_000;

/** Where a durable run is kept, and who this process is. */
export interface StoreOptions {
  store: RunStore;
  /** This process (or worker): the owner its leases are taken for. */
  owner: string;
  /** How long a lease lasts unless renewed, in ms (default 30 000). */
  leaseMs?: number;
}

/** A run resumed from the store under this process's lease. */
export interface DurableRun {
  readonly run: AgentRun;
  /**
   * Calls of the waiting batch a crash left in doubt (started, no result).
   * Every one of a tool that is not `idempotent` is among
   * `run.pendingApprovals`: a person decides — approve (run it again, same
   * `ctx.idempotencyKey`), `recordResult` then approve (the model gets that
   * result, nothing runs), or reject (skip it, with a message to the model).
   */
  readonly inDoubt: readonly ToolCallJournalEntry[];
  /** Records the result of an in-doubt call by hand: approving it then answers the model with it; the tool does not run. */
  recordResult(callId: string, result: unknown): Promise<void>;
  /**
   * Resolves once the run ended, no tool it started is still executing, and
   * its end was written (or the lease was lost). Wait for it before this
   * process takes the run again.
   */
  readonly settled: Promise<void>;
}

/**
 * Writes a run that waits for approval into the store (status `waiting`) and
 * gives its lease up, so any process may resume it. Like `run.persist()`,
 * it fences the in-memory run: only a resumed copy may decide its calls.
 *
 * @example
 * await waitForApproval(run);
 * await persistRunToStore(run, { store, owner: 'web-1' });
 */
export async function persistRunToStore(run: AgentRun, options: StoreOptions): Promise<void> {
  const { store, owner } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const snapshot = run.persist();
  let lease: Awaited<ReturnType<typeof store.createRun>>;
  try {
    lease = await store.createRun({ runId: run.runId, kind: 'run', name: snapshot.agent, owner, leaseMs });
  } catch (error) {
    if (!(error instanceof RunStoreError && error.code === 'RUN_ALREADY_EXISTS')) throw error;
    lease = await store.acquireLease(run.runId, owner, leaseMs);
  }
  await store.saveState(lease, { status: 'waiting', state: snapshot });
  await store.releaseLease(lease);
}

/**
 * Resumes a stored waiting run under a lease of `owner`: a second process
 * gets `RunOwnedElsewhereError` while the lease holds. Every tool call goes
 * through the store's journal (a call with a recorded result is never
 * executed again), the lease is renewed while the run goes on and a lost
 * lease aborts it, a new wait for approval is checkpointed, and the end is
 * written (status `finished`).
 *
 * @example
 * const { run, inDoubt } = await resumeRunFromStore(agent, runId, { store, owner: 'web-2' });
 * run.approve(run.pendingApprovals[0].id);
 * await run.result;
 */
export async function resumeRunFromStore(agent: Agent, runId: string, options: StoreOptions & ResumeOptions): Promise<DurableRun> {
  const { store, owner, leaseMs: leaseOption, ...resumeOptions } = options;
  const leaseMs = leaseOption ?? DEFAULT_LEASE_MS;
  const lease = await store.acquireLease(runId, owner, leaseMs);
  let started = false;
  try {
    const stored = await store.loadRun(runId);
    if (stored === undefined) throw new RunStoreError('RUN_NOT_FOUND', `The store has no run "${runId}".`, { runId });
    if (stored.kind !== 'run' || stored.name !== agent.name) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        `Stored ${stored.kind} "${runId}" belongs to "${stored.name}"; resume it with that agent, not "${agent.name}".`,
        {
          runId,
        },
      );
    }
    if (stored.status !== 'waiting') {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        `Stored run "${runId}" is ${stored.status}: only a run that waits for approval can be resumed from the store in this release.`,
        { runId, status: stored.status },
      );
    }
    const journal = await store.listCalls(runId);
    const known = new Map([...agentConfigOf(agent).addableTools, ...agentConfigOf(agent).tools]);
    for (const tool of resumeOptions.tools ?? []) known.set(tool.name, tool);
    const { snapshot, inDoubt } = withInDoubtRequests(stored.state, journal, known, agentConfigOf(agent).snapshotKey);

    let run: AgentRun | undefined;
    let current = lease; // until the keeper renews it
    let keeper = { current: () => current, stop: () => {} };
    const executing = new Set<Promise<unknown>>();
    const track = (execution: Promise<unknown>) => {
      executing.add(execution);
      const done = () => executing.delete(execution);
      execution.then(done, done);
    };
    const journaled = journalMiddleware({ store, lease: () => keeper.current(), onLeaseLost: () => run?.abort(), track });
    /** Until no tool of this process executes any more: an aborted run may still have effects landing. */
    const quiet = async () => {
      while (executing.size > 0) await Promise.allSettled([...executing]);
    };
    run = agent.resume(snapshot, { ...resumeOptions, middleware: [...(resumeOptions.middleware ?? []), journaled] });
    // Renewed from here on: a snapshot resume refused above leaves no timer behind.
    keeper = keepLease(store, current, leaseMs, () => run?.abort());
    current = keeper.current();
    started = true;
    const resumed = run;
    let checkpointedStep = (snapshot.machine.context as { step: number }).step;
    let writes = Promise.resolve();
    const write = (status: 'waiting' | 'finished', state: unknown) => {
      writes = writes.then(() => store.saveState(keeper.current(), { status, state }).then(() => {}));
      return writes;
    };
    const subscription = resumed.actor.subscribe((machine) => {
      if (!machine.matches('awaitingApproval') || machine.context.step === checkpointedStep) return;
      checkpointedStep = machine.context.step;
      void write('waiting', persistRun(resumed.actor)).catch(() => resumed.abort());
    });
    const settled = resumed.result.then(
      async (result) => {
        subscription.unsubscribe();
        await quiet();
        try {
          await write('finished', { format: 'agentchart.run.finished', stopReason: result.stopReason, text: result.text });
          await store.releaseLease(keeper.current());
        } catch {
          // the lease was lost: the new owner writes the end
        } finally {
          keeper.stop();
        }
      },
      async () => {
        await quiet();
        keeper.stop();
      },
    );
    return {
      run: resumed,
      inDoubt,
      recordResult: async (callId, result) => {
        if (!inDoubt.some((entry) => entry.callId === callId)) {
          throw new RunStoreError(
            'CALL_NOT_STARTED',
            `Call "${callId}" is not in doubt (in doubt: ${inDoubt.map((entry) => entry.callId).join(', ') || 'none'}).`,
            { callId },
          );
        }
        await store.recordCallResult(keeper.current(), callId, result);
      },
      settled,
    };
  } finally {
    if (!started) await store.releaseLease(lease).catch(() => {});
  }
}

/**
 * The stored snapshot with an approval request for every in-doubt call of a
 * tool that is not idempotent (re-signed when the agent signs; the original
 * signature is checked first).
 */
function withInDoubtRequests(
  state: unknown,
  journal: readonly ToolCallJournalEntry[],
  tools: ReadonlyMap<string, AnyTool>,
  snapshotKey: Parameters<typeof signSnapshot>[1] | undefined,
): { snapshot: PersistedRun; inDoubt: ToolCallJournalEntry[] } {
  const snapshot = state as PersistedRun;
  const context = (snapshot as { machine?: { context?: WaitingShape } }).machine?.context;
  if (context === undefined || !Array.isArray(context.batch?.calls) || !Array.isArray(context.approvals?.requests)) {
    return { snapshot, inDoubt: [] }; // agent.resume says what is wrong with it
  }
  const batchIds = new Set(context.batch.calls.map((call) => call.id));
  const inDoubt = journal.filter((entry) => entry.status === 'started' && batchIds.has(entry.callId));
  const requested = new Set(context.approvals.requests.map((request) => request.id));
  const toAsk = context.batch.calls.filter(
    (call) => inDoubt.some((entry) => entry.callId === call.id) && !requested.has(call.id) && tools.get(call.name)?.idempotent !== true,
  );
  if (toAsk.length === 0) return { snapshot, inDoubt };
  if (snapshotKey !== undefined) verifySnapshot(snapshot, snapshotKey, 'stored run');
  const order = new Map(context.batch.calls.map((call, index) => [call.id, index]));
  const requests = [
    ...context.approvals.requests,
    ...toAsk.map((call) => ({ id: call.id, toolName: call.name, arguments: call.arguments, step: context.step })),
  ].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const edited = structuredClone(snapshot);
  (edited.machine.context as unknown as WaitingShape).approvals.requests = requests;
  return { snapshot: snapshotKey === undefined ? edited : signSnapshot(edited, snapshotKey), inDoubt };
}

interface WaitingShape {
  step: number;
  batch: { calls: { id: string; name: string; arguments?: unknown }[] };
  approvals: { requests: { id: string; toolName: string; arguments: unknown; step: number }[] };
}

/** What `resumePending` did with each unfinished run. */
export interface PendingResumes {
  resumed: DurableRun[];
  /** Runs another owner holds, or of no agent given here. */
  skipped: { runId: string; reason: string }[];
}

/**
 * At process start: resumes every unfinished stored run of the given agents
 * that no other owner holds (runs another owner holds, of no agent given, or
 * not resumable are listed in `skipped` with the reason).
 *
 * @example
 * const { resumed } = await resumePending({ store, owner: 'worker-1', agents: [payer] });
 * for (const { run } of resumed) notifyApprovers(run.pendingApprovals);
 */
export async function resumePending(options: StoreOptions & { agents: readonly Agent[] }): Promise<PendingResumes> {
  const { agents, ...storeOptions } = options;
  const byName = new Map(agents.map((agent) => [agent.name, agent]));
  const outcome: PendingResumes = { resumed: [], skipped: [] };
  for (const summary of await options.store.listUnfinished('run')) {
    const agent = byName.get(summary.name);
    if (agent === undefined) {
      outcome.skipped.push({ runId: summary.runId, reason: `no agent named "${summary.name}" was given` });
      continue;
    }
    try {
      outcome.resumed.push(await resumeRunFromStore(agent, summary.runId, storeOptions));
    } catch (error) {
      // Held by another owner, or not resumable (a run created but never checkpointed): leave it, say why.
      if (!(error instanceof RunOwnedElsewhereError) && !(error instanceof RunSnapshotError)) throw error;
      outcome.skipped.push({ runId: summary.runId, reason: error.message });
    }
  }
  return outcome;
}
