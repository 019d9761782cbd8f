import {
  ApprovalError,
  ConfigurationError,
  RunSnapshotError,
  type Message,
  type RunEvent,
  type StateRecord,
  type ToolInputAnswer,
  type ToolModeSetting,
} from '@agentchart/core';
import { type Observable, Subject } from 'rxjs';
import { type Actor, type SnapshotFrom, createActor } from 'xstate';
import { newRunId } from '../../ids.js';
import { agentMachine } from '../machine/agentMachine.js';
import type { AgentMachineEvent } from '../machine/agentMachineEvent.js';
import type { AgentRuntime } from '../machine/agentContext.js';
import { type ApprovalRequest, pendingRequests } from '../machine/approvals.js';
import type { RunResult } from './runResult.js';
import type { InspectOption } from '../../inspection/inspectOption.js';
import { announceRun } from '../../inspection/runObservers.js';
import { type PersistedRun, type ResumePoint, persistRun } from './runSnapshot.js';
import type { SharedStateHandle } from '../../sharedState/sharedStateHandle.js';
import { stateChangedEvent } from '../../sharedState/stateChangedEvent.js';
import type { RunHandle } from '../../rootRun/runHandle.js';
import { AnsweredWaits } from '../../rootRun/answeredWaits.js';
import { announceWaitsOnceWritten } from '../../rootRun/announcementGate.js';
import { type RootRun, startRootRun } from '../../rootRun/startRootRun.js';
import { type PendingInput, answerInput, pendingInputs } from '../../rootRun/inputRequests.js';

/** A running (or finished) agent run. */
export interface AgentRun extends RunHandle<RunEvent, RunResult> {
  readonly runId: string;
  /**
   * Every event of the run, from `run.started` to `run.finished`. The run
   * starts on the next microtask, so subscribing right after `run()` sees all.
   * A resumed run reports from the resume on.
   */
  readonly events$: Observable<RunEvent>;
  /** The calls the run waits on a human decision for (empty unless it awaits approval). */
  readonly pendingApprovals: readonly ApprovalRequest[];
  /**
   * Approves a pending call; once every pending call is decided, the batch runs.
   * Throws `ApprovalError` when `id` is not pending.
   *
   * @example
   * for (const request of run.pendingApprovals) run.approve(request.id);
   */
  approve(id: string): void;
  /** Rejects a pending call: the model gets "rejected by the user" (and the reason) instead of a result. */
  reject(id: string, reason?: string): void;
  /** The questions of running calls that wait for a person's `answer` (`input.requested`). */
  readonly pendingInputs: readonly PendingInput[];
  /**
   * Answers a running call's question (an `input.requested` event): see
   * `RunHandle.answer`.
   *
   * @example
   * for (const question of run.pendingInputs) run.answer(question.id, { action: 'decline' });
   */
  answer(id: string, answer: ToolInputAnswer): void;
  /**
   * The run, while it waits for approval, as JSON: store it and continue it
   * later, in any process, with `agent.resume(snapshot)`. Throws
   * `RunSnapshotError` in any other state. After it, this copy is fenced:
   * `approve` / `reject` throw `RUN_PERSISTED` (only the resumed copy goes
   * on); `abort()` still ends it.
   */
  persist(): PersistedRun;
  /** The root actor, for inspection. */
  readonly actor: Actor<typeof agentMachine>;
}

/** Starts the agent machine for one run and wires its handle. */
export function startAgentRun(
  runtime: AgentRuntime,
  input: Message[],
  toolMode: ToolModeSetting,
  signal: AbortSignal | undefined,
  initialState: StateRecord = {},
  inspect?: InspectOption,
  runId: string = newRunId(),
): AgentRun {
  const actor = createActor(machineFor(runtime), {
    input: { runtime, runId, messages: input, toolMode, state: { initial: initialState } },
    ...(inspect ? { inspect } : {}),
  });
  return wireRun(runId, signal, { type: 'start' }, actor);
}

/** Continues a run from a restored machine snapshot (see `restoreRun`); a store checkpoint is sent `resume` to where it was. */
export function resumeAgentRun(
  runId: string,
  snapshot: SnapshotFrom<typeof agentMachine>,
  signal: AbortSignal | undefined,
  inspect?: InspectOption,
  resumeAt?: ResumePoint,
): AgentRun {
  const { runtime, messages, toolMode } = snapshot.context;
  const actor = createActor(machineFor(runtime), { snapshot, input: { runtime, runId, messages, toolMode }, ...(inspect ? { inspect } : {}) });
  return wireRun(runId, signal, resumeAt === undefined ? undefined : { type: 'resume', at: resumeAt }, actor);
}

/** Machines already provided with a rule machine: building one costs far more than a run. */
const machinesByRules = new WeakMap<object, typeof agentMachine>();

/** The agent machine with the agent's compiled rule machine as its `toolRules` actor (built once per rule set). */
export function machineFor(runtime: AgentRuntime): typeof agentMachine {
  const { toolRules } = runtime;
  if (toolRules === undefined) return agentMachine;
  let machine = machinesByRules.get(toolRules);
  if (machine === undefined) {
    machine = agentMachine.provide({ actors: { toolRules: toolRules.machine } });
    machinesByRules.set(toolRules, machine);
  }
  return machine;
}

function wireRun(runId: string, signal: AbortSignal | undefined, first: AgentMachineEvent | undefined, actor: Actor<typeof agentMachine>): AgentRun {
  const { runtime, sharedState } = actor.getSnapshot().context;
  const bus = new Subject<RunEvent>();
  const root = startRootRun<RunEvent, RunResult>(actor, {
    bus,
    signal,
    sendStart: first !== undefined,
    ...(first === undefined ? {} : { startEvent: first }),
    sharedState: { slot: sharedState, options: { schema: runtime.stateSchema } },
    stateEvent: (change) => stateChangedEvent(change, runId, runtime.agentName),
    ...announceWaitsOnceWritten(runtime.checkpoints?.written, (event: RunEvent) => event.type === 'approval.requested'),
  });
  const run = new AgentRunHandle(runId, actor, root);
  announceRun(run);
  return run;
}

/**
 * An agent run's handle over its root run. A class rather than an object
 * literal: V8 builds a literal with getters (`state`, `pendingApprovals`) on
 * its slow path, about 1 KiB and a microsecond per run. `abort`, `approve`, `reject` and `persist` are the
 * instance's own functions, so they still work detached
 * (`setTimeout(run.abort)`).
 */
class AgentRunHandle implements AgentRun {
  readonly events$: Observable<RunEvent>;
  readonly result: Promise<RunResult>;
  readonly abort: () => void;
  readonly approve = (id: string): void => this.#decide(id, true);
  readonly reject = (id: string, reason?: string): void => this.#decide(id, false, reason);
  readonly answer = (id: string, answer: ToolInputAnswer): void => answerInput(id, answer, (runId) => runId === this.runId);
  readonly persist = (): PersistedRun => {
    const snapshot = persistRun(this.actor);
    this.#persisted = true;
    return snapshot;
  };
  readonly #root: RootRun<RunEvent, RunResult>;
  /** After persist(), only the resumed copy may decide: two copies approving would run the call twice. */
  #persisted = false;
  /** The decisions this handle gave, by the wait they answer. */
  readonly #answered = new AnsweredWaits();

  constructor(
    readonly runId: string,
    readonly actor: Actor<typeof agentMachine>,
    root: RootRun<RunEvent, RunResult>,
  ) {
    this.#root = root;
    this.events$ = root.events$;
    this.result = root.result;
    this.abort = root.abort;
  }

  get state(): SharedStateHandle {
    return this.#root.state;
  }

  get pendingApprovals(): readonly ApprovalRequest[] {
    const snapshot = this.actor.getSnapshot();
    return snapshot.matches('awaitingApproval') ? pendingRequests(snapshot.context.approvals) : [];
  }

  get pendingInputs(): readonly PendingInput[] {
    return pendingInputs((runId) => runId === this.runId);
  }

  #decide(id: string, approved: boolean, reason?: string): void {
    const { runId } = this;
    if (this.#persisted) {
      throw new RunSnapshotError(
        'RUN_PERSISTED',
        `Run "${runId}" was persisted: decide its calls on the copy agent.resume(snapshot) returns, not on this one (only one copy may go on). ` +
          'This copy can only be aborted.',
        { runId },
      );
    }
    if (reason !== undefined && typeof reason !== 'string') {
      throw new ConfigurationError(
        `run.reject(id, reason): the reason is shown to the model, so it must be a string (got a value of type ${typeof reason}).`,
      );
    }
    const waiting = this.pendingApprovals;
    if (!waiting.some((request) => request.id === id))
      throw new ApprovalError(
        id,
        waiting.map((request) => request.id),
      );
    // Bound to this wait: a second decision on the call, given before the first is taken, is refused.
    const { requests } = this.actor.getSnapshot().context.approvals;
    if (!this.#answered.take(requests, id)) {
      throw new ApprovalError(
        id,
        waiting.filter((request) => !this.#answered.has(requests, request.id)).map((request) => request.id),
        `The call "${id}" is decided already (the decision is being taken): decide each call once.`,
      );
    }
    this.actor.send(reason === undefined ? { type: 'approval.decide', id, approved } : { type: 'approval.decide', id, approved, reason });
  }
}
