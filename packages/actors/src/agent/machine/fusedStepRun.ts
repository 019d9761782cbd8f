import {
  AbortedError,
  type AnyTool,
  type FunctionMiddleware,
  type RunEvent,
  type SharedState,
  type ToolCall,
  type ToolProgress,
} from '@agentchart/core';
import type { AnyEventObject } from 'xstate';
import { type AgentContext, type ToolOutcome, emptyDraft } from './agentContext.js';
import { type StepOutput, agentSteps, toolProgressEvent } from './agentSteps.js';
import { offeredToolsByName } from './buildModelRequest.js';
import { type ToolCallEnvironment, executeToolCall } from './executeToolCall.js';
import { type FusedStepInFlight, type FusedStepSlot, type StepDoneEvent, type StepsTakenEvent, stepContinues, stepMayFuse } from './fusedStep.js';
import type { CallModelCommand, ModelReply } from './modelCaller.js';
import { toolStateHandle } from '../run/runSharedState.js';
import type { LiveToolSet, ToolListChange } from '../tools/liveTools.js';

/** What a fused step needs from the model caller that runs it. */
export interface FusedStepIo {
  /** Emits a run event from the model caller (the run listens to it as to the agent). */
  emit(event: RunEvent): void;
  /** Sends the machine an event. */
  sendBack(event: AnyEventObject): void;
  /** The run's abort controller for tool calls (one per run, aborted only when a step is stopped with calls running). */
  controller(): AbortController;
  /**
   * Makes the next model call of the fused loop: `startStep`'s command, sent
   * by the loop instead of the machine. Without it the step does not loop: it
   * always ends with `step.done` (a chat's direct agent turn decides itself).
   */
  call?(command: CallModelCommand, loop: FusedStepRun): void;
}

/**
 * One fused step in the model caller (see `fusedStep.ts`): a copy of the
 * machine's context as the step started, moved by the machine's own step
 * functions as the reply comes and the batch settles. Every context change
 * also goes into `patch` (what the machine assigns with `step.done` or
 * `steps.taken`); every run event goes out at once through `emit`. While
 * step functions run, the slot is `busy`, and the events the machine
 * deferred meanwhile are sent back right after.
 *
 * When the batch is in and the run simply goes on (`stepContinues`), the
 * step starts the next one itself with `startStep` on its copy (the fused
 * loop): the next step works on the same copy and adds to the same `patch`,
 * and the slot keeps showing this step (its patch holds the new step's
 * number) until the next reply comes.
 *
 * The step is also its batch's `ToolCallEnvironment` (the tools, the
 * signal, the shared state, progress and tool-list reports as getters and
 * methods), so that a step makes no environment object and no closures for
 * its calls (docs/performance.md, "Fifth session").
 *
 * @example
 * new FusedStepRun(context, 3, { emit, sendBack, controller, call }).start(reply);
 */
export class FusedStepRun implements FusedStepInFlight, StepOutput, ToolCallEnvironment {
  /** The context fields this step (and the loop's steps before it) changed, for the machine to assign. */
  readonly patch: Partial<AgentContext>;
  readonly #context: AgentContext;
  /** Where the step functions write: this step itself (`assign`, `emit`, `sendTo`), no closures per step. */
  readonly #output: StepOutput = this;
  readonly #slot: FusedStepSlot;
  readonly #io: FusedStepIo;
  /** The run's abort controller for tool calls, taken from `io` when a call first reads its `signal`. */
  #controller: AbortController | undefined;
  /** Why the step was stopped with calls running before any of them read its `signal`: the signal is aborted when made. */
  #abortedWith: AbortedError | undefined;
  /** The batch's tools and shared-state handle, made when first needed (see `tools`, `stateFor`). */
  #tools: ReadonlyMap<string, AnyTool> | undefined;
  #state: ReturnType<typeof toolStateHandle> | undefined;
  #running = 0;
  /** How deep in `#busy` the step is (a tool's synchronous report nests). */
  #depth = 0;
  /** `running` until the last outcome is in (`finished`, then `reported`) or the machine stops it. */
  #phase: 'running' | 'finished' | 'reported' | 'stopped' = 'running';

  /**
   * `start`: the machine's context as the step started (copied), or, with
   * `loop`, the copy the loop's previous step left (its own, moved on by
   * `startStep`), whose `patch` this step goes on adding to.
   */
  constructor(start: AgentContext, step: number, io: FusedStepIo, loop?: FusedStepRun) {
    // As `startStep` left it: the machine (or the loop's previous step) already has these two.
    this.#context = loop === undefined ? { ...start, step, draft: emptyDraft() } : start;
    this.patch = loop === undefined ? {} : loop.patch;
    this.#slot = start.runtime.fusedStep;
    this.#io = io;
  }

  /** A step function's context change: into the step's copy of the context and its patch. */
  assign(part: Partial<AgentContext>): void {
    const context = this.#context as unknown as Record<string, unknown>;
    const patch = this.patch as Record<string, unknown>;
    for (const key in part) {
      const value = part[key as keyof AgentContext];
      patch[key] = value;
      context[key] = value;
    }
  }

  /** A step function's run event: out at once. */
  emit(event: RunEvent): void {
    this.#io.emit(event);
  }

  /** `startStep` of the loop's next step: the model call is made here, not by the machine. */
  sendTo(childId: 'model' | 'toolRunner' | 'toolRules', command: AnyEventObject): void {
    const io = this.#io;
    if (childId !== 'model' || io.call === undefined) throw new Error('A fused step sends no commands to children but the next model call.');
    io.call(command as CallModelCommand, this);
  }

  /**
   * Takes the reply as `acceptAndRunToolCalls` takes one whose calls run
   * without screening, and starts the batch as the tool runner does: every
   * call concurrently, against the tools offered for the step.
   */
  start(reply: ModelReply): void {
    this.#slot.current = this;
    this.#busy(() => {
      const event = { type: 'model.reply' as const, reply };
      agentSteps.takeReply(this.#context, event, this.#output);
      agentSteps.appendReply(this.#context, event, this.#output);
      agentSteps.startBatch(this.#context, event, this.#output);
      // Every call of a fused batch runs (`batchRunsWithoutDecision`): all count toward maxToolCalls.
      this.#output.assign({ toolCallCount: this.#context.toolCallCount + this.#context.batch.calls.length });
      this.#runBatch();
    });
  }

  /**
   * Hands the machine what the loop did before a failed model call: one
   * `steps.taken`, sent just before `model.failed`.
   */
  catchUp(): void {
    this.#io.sendBack({ type: 'steps.taken', patch: this.handOver() } satisfies StepsTakenEvent);
  }

  /** What the loop did, for the event that ends it (a reply the machine decides on carries it as `loop`). */
  handOver(): Partial<AgentContext> {
    if (this.#slot.current === this) this.#slot.current = undefined;
    return this.patch;
  }

  /** Stops the step: running calls are aborted and late outcomes dropped. */
  stop(): void {
    if (this.#phase === 'running') this.#phase = 'stopped';
    if (this.#slot.current === this) this.#slot.current = undefined;
    if (this.#running === 0) return;
    const reason = new AbortedError('The run was aborted.');
    if (this.#controller === undefined) this.#abortedWith ??= reason;
    else this.#controller.abort(reason);
  }

  /** The tools the batch's calls run against: those offered for the step, as the batch started. */
  get tools(): ReadonlyMap<string, AnyTool> {
    this.#tools ??= offeredToolsByName(this.#context);
    return this.#tools;
  }

  get liveTools(): LiveToolSet {
    return this.#context.runtime.liveTools;
  }

  get middleware(): readonly FunctionMiddleware[] {
    return this.#context.runtime.middleware;
  }

  get detailedErrors(): boolean {
    return this.#context.runtime.detailedErrors;
  }

  get agentName(): string {
    return this.#context.runtime.agentName;
  }

  get runId(): string {
    return this.#context.runId;
  }

  get step(): number {
    return this.#context.step;
  }

  /**
   * The signal of this batch's calls: the run's one controller, made by `io`
   * when a call first reads it (most tools never do: a run then makes none),
   * aborted at once when the step was stopped before.
   */
  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = this.#io.controller();
      if (this.#abortedWith !== undefined && !this.#controller.signal.aborted) this.#controller.abort(this.#abortedWith);
    }
    return this.#controller.signal;
  }

  /** A call's view of the run's shared state (one handle per batch, made when a tool first reads it). */
  stateFor(call: ToolCall): SharedState {
    this.#state ??= toolStateHandle(this.#context);
    return this.#state.withSource({ agent: this.#context.runtime.agentName, toolName: call.name, callId: call.id });
  }

  /** A running call's progress: what `relayToolProgress` emits in `acting`. */
  onProgress(callId: string, toolName: string, progress: ToolProgress): void {
    if (this.#phase !== 'running') return;
    this.#busy(() => this.#io.emit(toolProgressEvent(this.#context, callId, toolName, progress)));
  }

  /** A running call changed the run's tool list: what `reportToolsChanged` emits. */
  onToolsChanged(callId: string, change: ToolListChange): void {
    if (this.#phase !== 'running') return;
    const context = this.#context;
    this.#busy(() =>
      this.#io.emit({
        type: 'tools.changed',
        runId: context.runId,
        agent: context.runtime.agentName,
        step: context.step,
        callId,
        added: change.added,
        removed: change.removed,
        tools: context.runtime.liveTools.names(),
      }),
    );
  }

  /** Runs every call of the batch concurrently, this step as their environment. */
  #runBatch(): void {
    const calls = this.#context.batch.calls;
    this.#running = calls.length;
    for (let index = 0; index < calls.length; index++) {
      void executeToolCall(calls[index] as ToolCall, this).then((outcome) => this.#settle(index, outcome));
    }
  }

  /** A call's outcome: recorded; the last one puts the batch's results in the transcript. */
  #settle(index: number, outcome: ToolOutcome): void {
    this.#running -= 1;
    if (this.#phase !== 'running') return;
    this.#busy(() => {
      const settled = { type: 'tool.settled' as const, index, outcome };
      agentSteps.recordOutcome(this.#context, settled, this.#output);
      if (this.#running > 0) return;
      agentSteps.appendToolResults(this.#context, settled, this.#output);
      this.#phase = 'finished';
    });
  }

  /**
   * Runs step functions with the slot busy, then hands the machine what came
   * of them: once the batch is in the transcript, the next step of the loop,
   * or `step.done`; then the events it deferred meanwhile (an abort, unusable
   * tools), in their order.
   */
  #busy(work: () => void): void {
    const slot = this.#slot;
    slot.busy = true;
    // A tool may report progress or change the tool list while the batch starts, inside the outer work.
    this.#depth += 1;
    try {
      work();
      if (this.#depth === 1) this.#continueLoop();
    } finally {
      this.#depth -= 1;
    }
    if (this.#depth > 0) return;
    slot.busy = false;
    if (this.#phase === 'finished') {
      this.#phase = 'reported';
      if (slot.current === this) slot.current = undefined;
      this.#io.sendBack({ type: 'step.done', patch: this.patch } satisfies StepDoneEvent);
    }
    if (slot.deferred.length === 0) return;
    const deferred = slot.deferred;
    slot.deferred = [];
    for (const event of deferred) this.#io.sendBack(event);
  }

  /**
   * Once the batch is in: when the run simply goes on, the next step starts
   * here, as `takeFusedStepAndContinue` would start it, and the slot shows
   * this step until its reply comes. It starts while the slot is still busy,
   * so that an abort from a listener of its events waits as the machine's
   * mailbox makes it wait on the full path: one at its `model.request` comes
   * before any model call, one during a reply streamed synchronously after
   * the reply is taken. A deferred abort ends the loop: `step.done` goes to
   * the machine first, as it would have come after the batch's last outcome.
   */
  #continueLoop(): void {
    if (this.#phase !== 'finished' || this.#slot.deferred.length > 0 || this.#io.call === undefined) return;
    if (!stepContinues(this.#context, this.patch) || !stepMayFuse(this.#context)) return;
    this.#phase = 'reported';
    agentSteps.startStep(this.#context, START, this.#output);
  }
}

/** The event `startStep` gets in the loop (it reads none). */
const START = { type: 'start' } as const;
