import {
  ApprovalError,
  InputAnswerError,
  type RunEvent,
  RunSnapshotError,
  type SharedState,
  SharedStateError,
  type StateChange,
  type StateRecord,
} from '@agentchart/core';
import { type Observable, switchMap } from 'rxjs';
import { deferredStart } from './deferredStart.js';
import type { AgentRun } from './agentRun.js';
import type { ApprovalRequest } from '../machine/approvals.js';
import { ToolSourceError } from '../tools/toolSourceError.js';
import type { SharedStateHandle } from '../../sharedState/sharedStateHandle.js';

/**
 * An `AgentRun` returned at once for a run that needs asynchronous work
 * before its actor exists (loading tool sources). `prepare` gets an abort
 * signal and returns what starts the real run (called at once, so no event of
 * it is missed); until then there are no events, `abort()` is
 * remembered (the real run then starts aborted), approvals do not exist yet
 * and the shared state reads `initialState`. A resumed run knows its pending
 * approvals from the snapshot (`pendingAtStart`): decisions on them are
 * queued and handed to the real run once it exists. When `prepare` fails, `result`
 * rejects with its error and `events$` errors with it (the same when `prepare` fails).
 *
 * @example
 * return deferredAgentRun(runId, async (signal) => { const agent = await loadedAgent(signal); return () => agent.run(input, { signal }); }, options.signal);
 */
export function deferredAgentRun(
  runId: string,
  prepare: (signal: AbortSignal) => Promise<() => AgentRun>,
  userSignal: AbortSignal | undefined,
  initialState: StateRecord = {},
  pendingAtStart: readonly ApprovalRequest[] = [],
): AgentRun {
  const queued: { id: string; approved: boolean; reason?: string | undefined }[] = [];
  const waiting = () => pendingAtStart.filter((request) => !queued.some((decision) => decision.id === request.id));
  /** A decision on a pending call: given to the real run, or queued for it until it exists. */
  const decide = (id: string, approved: boolean, reason?: string) => {
    const run = deferred.current();
    if (run !== undefined) return approved ? run.approve(id) : run.reject(id, reason);
    if (!waiting().some((request) => request.id === id))
      throw new ApprovalError(
        id,
        waiting().map((request) => request.id),
      );
    queued.push({ id, approved, reason });
  };
  const deferred = deferredStart<RunEvent, Awaited<AgentRun['result']>, AgentRun>(prepare, userSignal, (run) => {
    for (const { id, approved, reason } of queued) {
      if (approved) run.approve(id);
      else run.reject(id, reason);
    }
  });
  const state = deferredState(deferred.current, deferred.started, initialState);
  return {
    runId,
    events$: deferred.events$,
    result: deferred.result,
    abort: deferred.abort,
    state,
    get pendingApprovals() {
      return deferred.current()?.pendingApprovals ?? waiting();
    },
    approve: (id) => decide(id, true),
    reject: (id, reason) => decide(id, false, reason),
    // A question is asked by a running call: none before the run exists.
    get pendingInputs() {
      return deferred.current()?.pendingInputs ?? [];
    },
    answer: (id, answer) => {
      const run = deferred.current();
      if (run) return run.answer(id, answer);
      throw new InputAnswerError('INPUT_NOT_PENDING', id, 'the run is still loading its tool sources, so no call has asked yet.');
    },
    persist: () => {
      const run = deferred.current();
      if (run) return run.persist();
      throw new RunSnapshotError(
        'RUN_NOT_PERSISTABLE',
        'The run is still loading its tool sources: persist it when `run.pendingApprovals` is not empty.',
        {
          state: 'loadingTools',
        },
      );
    },
    get actor() {
      const run = deferred.current();
      if (run) return run.actor;
      throw new ToolSourceError(
        'TOOL_SOURCE_NOT_LOADED',
        'The run is still loading its tool sources, so it has no actor yet: read `run.actor` after its first event.',
      );
    },
  };
}

/** The run's shared state before and after the real run exists. */
export function deferredState(
  current: () => { readonly state: SharedStateHandle } | undefined,
  started: Observable<{ readonly state: SharedStateHandle }>,
  initial: StateRecord,
): SharedStateHandle {
  const values = () => current()?.state.values() ?? { ...initial };
  const running = (): SharedStateHandle => {
    const run = current();
    if (run) return run.state;
    throw new SharedStateError('STATE_NOT_RUNNING', 'The run has not started yet (it is loading its tool sources): write its state once it runs.');
  };
  const handle: SharedState & Pick<SharedStateHandle, 'withSource' | 'ref'> = {
    get: (key) => (current()?.state.get(key) ?? initial[key]) as never,
    has: (key) => current()?.state.has(key) ?? key in initial,
    values: () => values() as never,
    set: (key, value) => running().set(key, value),
    delete: (key) => running().delete(key),
    update: (key, fn) => running().update(key, fn),
    changes$: started.pipe(switchMap((run): Observable<StateChange> => run.state.changes$)),
    withSource: (source) => running().withSource(source),
    get ref() {
      return running().ref;
    },
  };
  return handle as SharedStateHandle;
}
