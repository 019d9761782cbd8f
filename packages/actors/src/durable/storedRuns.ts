import {
  type AgentchartError,
  type AnyTool,
  type Message,
  type NewStoredRun,
  type RunLease,
  RunOwnedElsewhereError,
  RunSnapshotError,
  type RunStore,
  RunStoreError,
  type ToolCallJournalEntry,
} from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import { hostname } from 'node:os';
import type { Agent, ResumeOptions, RunOptions } from '../agent/createAgent.js';
import type { AgentRun } from '../agent/run/agentRun.js';
import { agentConfigOf } from '../participant/participantOf.js';
import { CHECKPOINTS_OPTION } from '../agent/run/checkpointsOption.js';
import { deferredAgentRun } from '../agent/run/deferredAgentRun.js';
import { RUN_ID_OPTION } from '../agent/run/runIdOption.js';
import type { PersistedRun } from '../agent/run/runSnapshot.js';
import { type SnapshotKey, signSnapshot, verifySnapshot } from '../agent/run/snapshotSignature.js';
import { checkOwnId, checkSeal } from './checkpointSeal.js';
import { newRunId } from '../ids.js';
import { freezeCheckpoint, storeCheckpoints, storedCheckpoint } from './runCheckpointer.js';
import { verifiedStoredState } from './checkpointChain.js';
import { resultOnceStored } from './resultOnceStored.js';
import { StoreSession } from './storeSession.js';
import { type DurableChat, heldChatResume, nextMacrotask } from './storedChats.js';
import type { GroupChat } from '../groupChat/createGroupChat.js';
import { ChatSnapshotError } from '../groupChat/groupChatErrors.js';
import type { RecordResultOptions } from './recordedResult.js';

/** How long a lease lasts unless renewed (a crashed owner's run is free again after it). */
export const DEFAULT_LEASE_MS = 30_000;

/** Where a durable run is kept, and who this process is. */
export interface StoreOptions {
  store: RunStore;
  /** This process (or worker): the owner its leases are taken for (default `<hostname>:<pid>`). */
  owner?: string;
  /** How long a lease lasts unless renewed, in ms (default 30 000). */
  leaseMs?: number;
}

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

/** This process, as a lease owner. */
const defaultOwner = () => `${hostname()}:${process.pid}`;

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
  return (await prepareStoredRun(agent, input, options))();
}

/** Creates the run in the store; the function returned starts it (synchronously, so no event is missed). */
async function prepareStoredRun(
  agent: Agent,
  input: string | readonly Message[],
  options: RunOptions & StoreOptions & { runId?: string },
): Promise<() => DurableRun> {
  const { store, owner = defaultOwner(), leaseMs = DEFAULT_LEASE_MS, runId = newRunId(), ...runOptions } = options;
  const lease = await createOrTakeUnstarted(store, { runId, kind: 'run', name: agent.name, owner, leaseMs });
  return () => {
    const session = durableSession(store, lease, leaseMs, agent);
    const run = agent.run(input, {
      ...runOptions,
      middleware: [...(runOptions.middleware ?? []), session.journal],
      [RUN_ID_OPTION]: runId,
      [CHECKPOINTS_OPTION]: session.checkpoints,
    } as RunOptions);
    // The first checkpoint: the input, before the first model call.
    const frozen = freezeCheckpoint(run.actor.getSnapshot().context, 'stepDone');
    session.writer.checkpoint('running', (journal) => storedCheckpoint(frozen, agentConfigOf(agent).snapshotKey !== undefined, journal));
    return session.attach(run, []);
  };
}

/**
 * Creates a run (or chat) in the store; one with this id that exists but
 * was never checkpointed (its process stopped right after creating it, before
 * anything ran) is taken over and started again. Any other existing one
 * throws `RUN_ALREADY_EXISTS` (resume it instead).
 */
export async function createOrTakeUnstarted(store: RunStore, run: NewStoredRun): Promise<RunLease> {
  try {
    return await store.createRun(run);
  } catch (error) {
    if (!(error instanceof RunStoreError && error.code === 'RUN_ALREADY_EXISTS')) throw error;
    const existing = await store.loadRun(run.runId);
    if (existing === undefined || existing.state !== undefined || existing.kind !== run.kind || existing.name !== run.name) throw error;
    const lease = await store.acquireLease(run.runId, run.owner, run.leaseMs);
    if ((await store.loadRun(run.runId))?.state === undefined) return lease;
    await store.releaseLease(lease);
    throw error;
  }
}

/**
 * `agent.run(input, { store, runId })`: the run at once, started once the
 * store created it (see `startRunInStore`).
 */
export function storedAgentRun(agent: Agent, input: string | readonly Message[], options: RunOptions & StoreOptions & { runId?: string }): AgentRun {
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
export function storedAgentResume(agent: Agent, runId: string, options: ResumeOptions & StoreOptions): AgentRun {
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
  const start = await prepareResume(agent, runId, options);
  try {
    return start();
  } catch (error) {
    await start.released;
    throw error;
  }
}

/** Loads the run under a lease; the function returned starts it (a snapshot it refuses gives the lease up: `released`). */
async function prepareResume(
  agent: Agent,
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
    const config = agentConfigOf(agent);
    const journal = await store.listCalls(runId);
    const known = new Map([...config.addableTools, ...config.tools]);
    for (const tool of resumeOptions.tools ?? []) known.set(tool.name, tool);
    const checkpoint = ownCheckpoint(verifiedStoredState(stored, config.snapshotKey, 'stored run'), runId, journal, config.snapshotKey);
    const { snapshot, inDoubt } = withInDoubtRequests(checkpoint, journal, known, config.snapshotKey);
    const start: (() => DurableRun) & { released?: Promise<void> } = () => {
      const session = durableSession(store, lease, leaseMs, agent, journal);
      let run: AgentRun;
      try {
        run = agent.resume(snapshot, {
          ...resumeOptions,
          middleware: [...(resumeOptions.middleware ?? []), session.journal],
          [CHECKPOINTS_OPTION]: session.checkpoints,
        } as ResumeOptions);
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
function durableSession(store: RunStore, lease: RunLease, leaseMs: number, agent: Agent, journaled: readonly ToolCallJournalEntry[] = []) {
  let run: AgentRun | undefined;
  const onFailure = (error: unknown) => {
    if (run?.actor.getSnapshot().status === 'active') run.actor.send({ type: 'run.fail', error: toErrorInfo(error) });
  };
  const session = new StoreSession(store, lease, leaseMs, onFailure, undefined, journaled, agentConfigOf(agent).snapshotKey);
  const checkpoints = storeCheckpoints(session.writer, agentConfigOf(agent).snapshotKey);

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
 * The stored snapshot with an approval request for every in-doubt call of a
 * tool that is not idempotent: a checkpoint in a batch (`acting`, or
 * `batchReady`) becomes a wait for approval (re-signed when the agent signs;
 * the original signature is checked first). A batch not screened yet
 * (`batchReady`) also asks for every other call of a tool that may need
 * approval, since it cannot be screened beside a person's decisions.
 */
export function withInDoubtRequests(
  state: unknown,
  journal: readonly ToolCallJournalEntry[],
  tools: ReadonlyMap<string, AnyTool>,
  snapshotKey: Parameters<typeof signSnapshot>[1] | undefined,
): { snapshot: PersistedRun; inDoubt: ToolCallJournalEntry[] } {
  const snapshot = state as PersistedRun;
  const machine = (snapshot as { machine?: { value?: unknown; context?: WaitingShape } }).machine;
  const context = machine?.context;
  if (
    context === undefined ||
    !Array.isArray(context.batch?.calls) ||
    !context.batch.calls.every((call) => typeof call === 'object' && call !== null) ||
    !Array.isArray(context.batch?.outcomes) ||
    !Array.isArray(context.approvals?.requests)
  ) {
    return { snapshot, inDoubt: [] }; // agent.resume says what is wrong with it
  }
  const { calls, outcomes } = context.batch;
  const batchIds = new Set(calls.map((call) => call.id));
  const inDoubt = journal.filter((entry) => entry.status === 'started' && batchIds.has(entry.callId));
  const doubted = new Set(inDoubt.filter((entry) => tools.get(entry.toolName)?.idempotent !== true).map((entry) => entry.callId));
  if (doubted.size === 0) return { snapshot, inDoubt };
  const requested = new Set(context.approvals.requests.map((request) => request.id));
  const unscreened = machine?.value === 'batchReady';
  const toAsk = calls.filter(
    (call, index) =>
      (outcomes[index] ?? null) === null &&
      (doubted.has(call.id) || (unscreened && !requested.has(call.id) && (tools.get(call.name)?.approval ?? 'never') !== 'never')),
  );
  if (snapshotKey !== undefined) verifySnapshot(snapshot, snapshotKey, 'stored run');
  const askIds = new Set(toAsk.map((call) => call.id));
  const order = new Map(calls.map((call, index) => [call.id, index]));
  const requests = [
    ...context.approvals.requests.filter((request) => !askIds.has(request.id)),
    ...toAsk.map((call) => ({ id: call.id, toolName: call.name, arguments: call.arguments, step: context.step })),
  ].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const decisions = Object.fromEntries(Object.entries(context.approvals.decisions ?? {}).filter(([id]) => !askIds.has(id)));
  const { signature: _signature, ...unsigned } = structuredClone(snapshot);
  const edited = unsigned as PersistedRun;
  (edited.machine as { value: string }).value = 'awaitingApproval';
  (edited.machine.context as unknown as WaitingShape).approvals = { requests, decisions };
  return { snapshot: snapshotKey === undefined ? edited : signSnapshot(edited, snapshotKey), inDoubt };
}

interface WaitingShape {
  step: number;
  batch: { calls: { id: string; name: string; arguments?: unknown }[]; outcomes: unknown[] };
  approvals: { requests: { id: string; toolName: string; arguments: unknown; step: number }[]; decisions?: Record<string, unknown> };
}

/** What `resumePending` did with each unfinished run and chat. */
export interface PendingResumes {
  resumed: DurableRun[];
  /** The chats resumed. */
  chats: DurableChat[];
  /** Runs and chats another owner holds, of no agent or chat given here, or not resumable. */
  skipped: {
    runId: string;
    reason: string /** What refused it (a damaged or refused checkpoint, a lease held elsewhere). */;
    error?: AgentchartError;
  }[];
}

/** What `resumePending` takes: where runs are kept, who this process is, and the agents and chats it may resume. */
export interface ResumePendingOptions extends StoreOptions {
  agents?: readonly Agent[];
  chats?: readonly GroupChat[];
  /**
   * Also take over what another owner holds, once its lease lapses: a
   * crashed owner (this process before a restart, under its old default
   * owner `<hostname>:<pid>`) stops renewing, so its runs are resumed when
   * their leases end (at most `leaseMs` after the crash). A live owner keeps
   * renewing: its runs stay in `skipped`. Default false: skip at once.
   */
  waitForLeases?: boolean;
}

/**
 * At process start: resumes every unfinished stored run of the given agents
 * and every unfinished chat of the given chats that no other owner holds,
 * from its last checkpoint (one that waited for a person waits again; the
 * others go on). With `waitForLeases`, what another owner holds is retried
 * once its lease has lapsed. Those still held, of no agent or chat given, or
 * not resumable are listed in `skipped` with the reason.
 *
 * @example
 * const { resumed, chats } = await resumePending({ store, owner: 'worker-1', agents: [payer], chats: [team] });
 * for (const { run } of resumed) notifyApprovers(run.pendingApprovals);
 */
export async function resumePending(options: ResumePendingOptions): Promise<PendingResumes> {
  const { agents = [], chats = [], waitForLeases = false, ...storeOptions } = options;
  const agentsByName = new Map(agents.map((agent) => [agent.name, agent]));
  const chatsByName = new Map(chats.map((chat) => [chat.name, chat]));
  const outcome: PendingResumes = { resumed: [], chats: [], skipped: [] };
  // The chats start once this resolves: the caller has them before their first event.
  let release!: () => void;
  const gathered = new Promise<void>((resolve) => (release = resolve)).then(nextMacrotask);
  const held: { expiresAt: number; runId: string; resume: () => Promise<void> }[] = [];
  for (const summary of await options.store.listUnfinished()) {
    const owner = summary.kind === 'run' ? agentsByName.get(summary.name) : chatsByName.get(summary.name);
    if (owner === undefined) {
      outcome.skipped.push({ runId: summary.runId, reason: `no ${summary.kind === 'run' ? 'agent' : 'chat'} named "${summary.name}" was given` });
      continue;
    }
    const resume = async () => {
      if (summary.kind === 'run') outcome.resumed.push(await resumeRunFromStore(owner as Agent, summary.runId, storeOptions));
      else outcome.chats.push(await heldChatResume(owner as GroupChat, summary.runId, storeOptions, gathered));
    };
    try {
      await resume();
    } catch (error) {
      if (waitForLeases && error instanceof RunOwnedElsewhereError) held.push({ expiresAt: error.expiresAt, runId: summary.runId, resume });
      else skip(outcome, summary.runId, error);
    }
  }
  // The lapsed leases, soonest first: each is tried once more when it has ended.
  for (const entry of held.sort((a, b) => a.expiresAt - b.expiresAt)) {
    const wait = entry.expiresAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + LEASE_CLOCK_MARGIN_MS));
    try {
      await entry.resume();
    } catch (error) {
      skip(outcome, entry.runId, error);
    }
  }
  release();
  return outcome;
}

/** Waited beyond a lease's end before taking it over, so the store's clock has passed it too. */
const LEASE_CLOCK_MARGIN_MS = 20;

/** Held by another owner, or not resumable (created but never checkpointed, refused, its rows damaged): leave it, say why. */
function skip(outcome: PendingResumes, runId: string, error: unknown): void {
  const damaged = error instanceof RunStoreError && error.code === 'STORE_DATA_INVALID';
  if (!(error instanceof RunOwnedElsewhereError) && !(error instanceof RunSnapshotError) && !(error instanceof ChatSnapshotError) && !damaged)
    throw error;
  outcome.skipped.push({ runId, reason: error.message, error });
}
