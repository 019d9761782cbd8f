import { type Message, RunSnapshotError, type RunLease, type RunStore, RunStoreError, type ToolCallJournalEntry } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import type { AgentStoreRuns } from '../agent/agentStoreRuns.js';
import type { Agent, ResumeOptions, RunOptions } from '../agent/agentTypes.js';
import { type InternalAgent, agentInternals } from '../agent/internalAgent.js';
import type { AgentRun } from '../agent/run/agentRun.js';
import { deferredAgentRun } from '../agent/run/deferredAgentRun.js';
import { withInDoubtRequests } from '../agent/run/inDoubtApprovals.js';
import { type SnapshotKey, signSnapshot } from '../agent/run/snapshotSignature.js';
import { newRunId } from '../ids.js';
import type { StoreOptions } from '../storeOptions.js';
import { verifiedStoredState } from './checkpointChain.js';
import { checkOwnId, checkSeal } from './checkpointSeal.js';
import { createOrTakeUnstarted } from './createOrTakeUnstarted.js';
import { DEFAULT_LEASE_MS, defaultOwner } from './leaseDefaults.js';
import type { RecordResultOptions } from './recordedResult.js';
import { resultOnceStored } from './resultOnceStored.js';
import { freezeCheckpoint, storeCheckpoints, storedCheckpoint } from './runCheckpointer.js';
import { StoreSession } from './storeSession.js';

/** A run in the store under this process's lease. */
export interface DurableRun {
  readonly run: AgentRun;
  /**
   * Calls of the current batch a crash left in doubt (started, no result).
   * Every one of a tool that is not `idempotent` is among
   * `run.pendingApprovals`: a person decides — approve (run it again, same
   * `ctx.idempotencyKey`), `recordResult` then approve (the model gets that
   * result, nothing runs), or reject (skip it, with a message to the model).
   */
  readonly inDoubt: readonly ToolCallJournalEntry[];
  /**
   * Records the result of an in-doubt call by hand: approving it then answers
   * the model with it; the tool does not run. The journal keeps results, not
   * the shared-state writes of a call that was cut off: pass them as
   * `state` and they land when the result answers the call (stored with it,
   * so a crash before the approval keeps them too); without it, none does.
   *
   * @example
   * await durable.recordResult('call_1', 'paid Bob 10 (checked by hand)', { state: { paid: 'Bob' } });
   * durable.run.approve('call_1');
   */
  recordResult(callId: string, result: unknown, options?: RecordResultOptions): Promise<void>;
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
  const { store, owner = defaultOwner() } = options;
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
 * Starts a run kept in the store: created under a lease of `owner`
 * (`RUN_ALREADY_EXISTS` when the id is taken), checkpointed at every step
 * (after each model reply, before each batch, after each batch, at each wait
 * for approval, at the end), every tool call through the journal, the lease
 * renewed while it runs; a lost lease fails the run with `RUN_LEASE_LOST`.
 * `agent.run(input, { store })` does the same and returns the run at once.
 *
 * @example
 * const { run, settled } = await startRunInStore(agent, 'Pay Bob 250', { store, runId: 'pay-42' });
 * await run.result;
 */
export async function startRunInStore(
  agent: Agent,
  input: string | readonly Message[],
  options: RunOptions & StoreOptions & { runId?: string },
): Promise<DurableRun> {
  return (await prepareStoredRun(agentInternals(agent), input, options))();
}

/** Creates the run in the store; the function returned starts it (synchronously, so no event is missed). */
async function prepareStoredRun(
  agent: InternalAgent,
  input: string | readonly Message[],
  options: RunOptions & StoreOptions & { runId?: string },
): Promise<() => DurableRun> {
  const { store, owner = defaultOwner(), leaseMs = DEFAULT_LEASE_MS, runId = newRunId(), ...runOptions } = options;
  const lease = await createOrTakeUnstarted(store, { runId, kind: 'run', name: agent.name, owner, leaseMs });
  return () => {
    const session = durableSession(store, lease, leaseMs, agent);
    const run = agent.start(
      input,
      { ...runOptions, middleware: [...(runOptions.middleware ?? []), session.journal] },
      { runId, checkpoints: session.checkpoints },
    );
    // The first checkpoint: the input, before the first model call.
    const frozen = freezeCheckpoint(run.actor.getSnapshot().context, 'stepDone');
    session.writer.checkpoint('running', (journal) => storedCheckpoint(frozen, agent.config().snapshotKey !== undefined, journal));
    return session.attach(run, []);
  };
}

/**
 * `agent.run(input, { store, runId })`: the run at once, started once the
 * store created it (see `startRunInStore`).
 */
function storedAgentRun(agent: InternalAgent, input: string | readonly Message[], options: RunOptions & StoreOptions & { runId?: string }): AgentRun {
  const runId = options.runId ?? newRunId();
  return deferredAgentRun(
    runId,
    async (signal) => {
      const start = await prepareStoredRun(agent, input, { ...options, runId, signal });
      return () => start().run;
    },
    options.signal,
    options.state,
  );
}

/**
 * `agent.resume(runId, { store })`: the run at once, going on once it was
 * loaded under this process's lease (see `resumeRunFromStore`).
 */
function storedAgentResume(agent: InternalAgent, runId: string, options: ResumeOptions & StoreOptions): AgentRun {
  return deferredAgentRun(
    runId,
    async (signal) => {
      const start = await prepareResume(agent, runId, { ...options, signal });
      return () => start().run;
    },
    options.signal,
  );
}

/**
 * Resumes a stored run from its last checkpoint, whatever step it was at,
 * under a lease of `owner`: a second process gets `RunOwnedElsewhereError`
 * while the lease holds. A run that waited for approval waits again; one
 * stopped before a model call calls the model again (model calls are
 * at-least-once); one stopped in a batch runs it through the journal: a
 * call with a recorded result is never executed again (the model gets the
 * recorded result), an in-doubt call of an `idempotent` tool runs again
 * with the same `ctx.idempotencyKey`, any other in-doubt call becomes an
 * approval request (`inDoubt`). From then on every step is checkpointed as
 * in `startRunInStore`.
 *
 * @example
 * const { run, inDoubt } = await resumeRunFromStore(agent, runId, { store, owner: 'web-2' });
 * for (const request of run.pendingApprovals) run.approve(request.id);
 * await run.result;
 */
export async function resumeRunFromStore(agent: Agent, runId: string, options: StoreOptions & ResumeOptions): Promise<DurableRun> {
  const start = await prepareResume(agentInternals(agent), runId, options);
  try {
    return start();
  } catch (error) {
    await start.released;
    throw error;
  }
}

/** Loads the run under a lease; the function returned starts it (a snapshot it refuses gives the lease up: `released`). */
async function prepareResume(
  agent: InternalAgent,
  runId: string,
  options: StoreOptions & ResumeOptions,
): Promise<(() => DurableRun) & { released?: Promise<void> }> {
  const { store, owner = defaultOwner(), leaseMs = DEFAULT_LEASE_MS, ...resumeOptions } = options;
  const lease = await store.acquireLease(runId, owner, leaseMs);
  try {
    const stored = await store.loadRun(runId);
    if (stored === undefined) throw new RunStoreError('RUN_NOT_FOUND', `The store has no run "${runId}".`, { runId });
    if (stored.kind !== 'run' || stored.name !== agent.name) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        `Stored ${stored.kind} "${runId}" belongs to "${stored.name}"; resume it with that agent, not "${agent.name}".`,
        { runId },
      );
    }
    if (stored.status === 'finished' || stored.state === undefined) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        stored.status === 'finished'
          ? `Stored run "${runId}" is finished: there is nothing to resume (its end is its stored state).`
          : `Stored run "${runId}" has no checkpoint: its process stopped right after creating it, before anything ran. Start it again.`,
        { runId, status: stored.status },
      );
    }
    const config = agent.config();
    const journal = await store.listCalls(runId);
    const known = new Map([...config.addableTools, ...config.tools]);
    for (const tool of resumeOptions.tools ?? []) known.set(tool.name, tool);
    const checkpoint = ownCheckpoint(verifiedStoredState(stored, config.snapshotKey, 'stored run'), runId, journal, config.snapshotKey);
    const { snapshot, inDoubt } = withInDoubtRequests(checkpoint, journal, known, config.snapshotKey);
    const start: (() => DurableRun) & { released?: Promise<void> } = () => {
      const session = durableSession(store, lease, leaseMs, agent, journal);
      let run: AgentRun;
      try {
        run = agent.restore(
          snapshot,
          { ...resumeOptions, middleware: [...(resumeOptions.middleware ?? []), session.journal] },
          { checkpoints: session.checkpoints },
        );
      } catch (error) {
        // A snapshot the agent refuses: nothing ran; leave the run free for whoever can resume it.
        start.released = store.releaseLease(lease).catch(() => {});
        throw error;
      }
      return session.attach(run, inDoubt);
    };
    return start;
  } catch (error) {
    await store.releaseLease(lease).catch(() => {});
    throw error;
  }
}

/**
 * What a run kept in the store runs with: its writer (checkpoints and
 * journal entries in order, under the lease), the journal middleware, the
 * checkpoint hooks, and, once attached to the run, the lease keeper and the
 * end. A write refused for a lost lease (or any failed checkpoint write)
 * fails the run with that error: nothing more is executed.
 */
function durableSession(store: RunStore, lease: RunLease, leaseMs: number, agent: InternalAgent, journaled: readonly ToolCallJournalEntry[] = []) {
  let run: AgentRun | undefined;
  const onFailure = (error: unknown) => {
    if (run?.actor.getSnapshot().status === 'active') run.actor.send({ type: 'run.fail', error: toErrorInfo(error) });
  };
  const session = new StoreSession(store, lease, leaseMs, onFailure, undefined, journaled, agent.config().snapshotKey);
  const checkpoints = storeCheckpoints(session.writer, agent.config().snapshotKey);

  const attach = (attached: AgentRun, inDoubt: readonly ToolCallJournalEntry[]): DurableRun => {
    run = attached;
    session.keepLease();
    const { settled, stored } = session.settle(attached.result, (result) => ({
      format: 'agentchart.run.finished',
      stopReason: result.stopReason,
      text: result.text,
    }));
    return {
      run: resultOnceStored(attached, stored),
      inDoubt,
      recordResult: (callId, result, options) => session.recordResult(inDoubt, callId, callId, result, options),
      settled,
    };
  };
  return { writer: session.writer, journal: session.journal, checkpoints, attach };
}

/**
 * The checkpoint stored in run `runId`'s row (its signature or its chain's
 * already verified), once it is shown to belong there: signed, its seal (this row, the journal entries it
 * relies on) and its run id are checked (`SNAPSHOT_TAMPERED`), then it is
 * re-signed without the seal for `agent.resume`; unsigned, its run id must
 * be the row's (`RUN_SNAPSHOT_INVALID`).
 */
function ownCheckpoint(state: unknown, runId: string, journal: readonly ToolCallJournalEntry[], snapshotKey: SnapshotKey | undefined): unknown {
  const where = { row: runId, kind: 'run' as const };
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `Stored run "${runId}" holds ${JSON.stringify(state)} where its checkpoint should be: the row is damaged. Nothing ran; restore the row or remove it.`,
      { runId },
    );
  }
  if (snapshotKey === undefined) {
    checkOwnId(state as Record<string, unknown>, 'runId', where, false);
    return state;
  }
  const { signature: _signature, ...signed } = state as Record<string, unknown>;
  const checkpoint = checkSeal(signed, where, journal);
  checkOwnId(checkpoint, 'runId', where, true);
  return signSnapshot(checkpoint, snapshotKey);
}

/**
 * How an agent's runs with `{ store }` are kept in the store (handed to
 * every agent by the `createAgent` facade): `agent.run(input, { store })`
 * and `agent.resume(runId, { store })`.
 */
export const agentStoreRuns: AgentStoreRuns = { run: storedAgentRun, resume: storedAgentResume };
