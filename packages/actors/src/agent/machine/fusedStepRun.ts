import { AbortedError, type RunEvent } from '@agentchart/core';
import type { AnyEventObject } from 'xstate';
import { type AgentContext, emptyDraft } from './agentContext.js';
import { type StepOutput, agentSteps } from './agentSteps.js';
import { offeredToolsByName } from './buildModelRequest.js';
import { type ToolCallEnvironment, executeToolCall } from './executeToolCall.js';
import type { FusedStepInFlight, FusedStepSlot, StepDoneEvent } from './fusedStep.js';
import type { ModelReply } from './modelCallerActor.js';
import { toolStateHandle } from '../run/runSharedState.js';

/**
 * One fused step in the model caller (see `fusedStep.ts`): a copy of the
 * machine's context as the step started, moved by the machine's own step
 * functions as the reply comes and the batch settles. Every context change
 * also goes into `patch` (what the machine assigns with `step.done`); every
 * run event goes out at once through `emit`. While step functions run, the
 * slot is `busy`, and the events the machine deferred meanwhile are sent
 * back right after.
 *
 * @example
 * new FusedStepRun(context, 3, { emit, sendBack }).start(reply);
 */
export class FusedStepRun implements FusedStepInFlight {
  /** The context fields this step changed, for the machine to assign. */
  readonly patch: Partial<AgentContext> = {};
  readonly #context: AgentContext;
  readonly #output: StepOutput;
  readonly #slot: FusedStepSlot;
  readonly #sendBack: (event: AnyEventObject) => void;
  readonly #controllerOf: () => AbortController;
  #controller: AbortController | undefined;
  #running = 0;
  /** How deep in `#busy` the step is (a tool's synchronous report nests). */
  #depth = 0;
  /** `running` until the last outcome is in (`finished`, then `reported`) or the machine stops it. */
  #phase: 'running' | 'finished' | 'reported' | 'stopped' = 'running';

  /**
   * `io.controller`: the run's abort controller for tool calls (one per run,
   * aborted only when a step is stopped with calls running).
   */
  constructor(
    start: AgentContext,
    step: number,
    io: { emit: (event: RunEvent) => void; sendBack: (event: AnyEventObject) => void; controller: () => AbortController },
  ) {
    // As `startStep` left it: the machine already has these two.
    this.#context = { ...start, step, draft: emptyDraft() };
    this.#slot = start.runtime.fusedStep;
    this.#sendBack = io.sendBack;
    this.#controllerOf = io.controller;
    const context = this.#context as unknown as Record<string, unknown>;
    const patch = this.patch as Record<string, unknown>;
    this.#output = {
      assign(part) {
        for (const key in part) {
          const value = part[key as keyof AgentContext];
          patch[key] = value;
          context[key] = value;
        }
      },
      emit: io.emit,
      sendTo() {
        throw new Error('A fused step sends no commands to children: only steps that send none may run in it.');
      },
    };
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

  /** Stops the step: running calls are aborted and late outcomes dropped. */
  stop(): void {
    if (this.#phase === 'running') this.#phase = 'stopped';
    if (this.#slot.current === this) this.#slot.current = undefined;
    if (this.#running > 0) this.#controller?.abort(new AbortedError('The run was aborted.'));
  }

  #runBatch(): void {
    const context = this.#context;
    const { runtime } = context;
    const agentName = runtime.agentName;
    this.#controller = this.#controllerOf();
    let state: ReturnType<typeof toolStateHandle> | undefined;
    const env: ToolCallEnvironment = {
      tools: offeredToolsByName(context),
      liveTools: runtime.liveTools,
      middleware: runtime.middleware,
      detailedErrors: runtime.detailedErrors,
      agentName,
      runId: context.runId,
      step: context.step,
      signal: this.#controller.signal,
      stateFor: (call) => {
        state ??= toolStateHandle(context);
        return state.withSource({ agent: agentName, toolName: call.name, callId: call.id });
      },
      // What `relayToolProgress` emits in `acting`.
      onProgress: (callId, toolName, progress) => {
        if (this.#phase !== 'running') return;
        this.#busy(() =>
          this.#output.emit({ type: 'tool.progress', runId: context.runId, agent: agentName, step: context.step, callId, toolName, ...progress }),
        );
      },
      onToolsChanged: (callId, change) => {
        if (this.#phase !== 'running') return;
        this.#busy(() =>
          this.#output.emit({
            type: 'tools.changed',
            runId: context.runId,
            agent: agentName,
            step: context.step,
            callId,
            added: change.added,
            removed: change.removed,
            tools: runtime.liveTools.names(),
          }),
        );
      },
    };
    const calls = context.batch.calls;
    this.#running = calls.length;
    calls.forEach((call, index) => {
      void executeToolCall(call, env).then((outcome) => {
        this.#running -= 1;
        if (this.#phase !== 'running') return;
        this.#busy(() => {
          const settled = { type: 'tool.settled' as const, index, outcome };
          agentSteps.recordOutcome(this.#context, settled, this.#output);
          if (this.#running > 0) return;
          agentSteps.appendToolResults(this.#context, settled, this.#output);
          this.#slot.current = undefined;
          this.#phase = 'finished';
        });
      });
    });
  }

  /**
   * Runs step functions with the slot busy, then hands the machine what came
   * of them: `step.done` once the batch is in the transcript, then the events
   * it deferred meanwhile (an abort, unusable tools), in their order.
   */
  #busy(work: () => void): void {
    const slot = this.#slot;
    slot.busy = true;
    // A tool may report progress or change the tool list while the batch starts, inside the outer work.
    this.#depth += 1;
    try {
      work();
    } finally {
      this.#depth -= 1;
    }
    if (this.#depth > 0) return;
    slot.busy = false;
    if (this.#phase === 'finished') {
      this.#phase = 'reported';
      this.#sendBack({ type: 'step.done', patch: this.patch } satisfies StepDoneEvent);
    }
    if (slot.deferred.length === 0) return;
    const deferred = slot.deferred;
    slot.deferred = [];
    for (const event of deferred) this.#sendBack(event);
  }
}
