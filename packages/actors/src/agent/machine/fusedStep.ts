import type { AnyEventObject } from 'xstate';
import type { RunEvent, ToolCall } from '@agentchart/core';
import type { AgentContext } from './agentContext.js';
import type { OwnModelCaller } from './agentModelCaller.js';
import { offeredToolsNow } from './buildModelRequest.js';
import { oneCallAtATimeRefusals } from './oneCallAtATime.js';
import { tokenBudgetSpent } from './runTokenBudget.js';

/**
 * The fused step (docs/performance.md, "One event per step"). When nothing
 * in a step is a decision — no tool rules, no call that needs approval or
 * must run alone, no tool-call budget reached, no last call at a limit, no
 * inspector, no durable checkpoints — the model caller takes the reply and
 * runs its batch itself, with the machine's own step functions
 * (`agentSteps`) on a copy of the context: the run events go out as they
 * happen (the reply's events when it arrives, `tool.call` when the batch
 * starts, each `tool.result` as its call settles), in the order the full
 * path emits them. When the step leaves the run simply going on
 * (`stepContinues`), the model caller starts the next step itself, on its
 * own copy of the context, with the machine's `startStep`: the fused loop.
 * The machine hears from the loop only when it ends or reaches something the
 * machine decides: one `step.done` with the context the loop produced after
 * a step that ends the run or reaches a limit (the machine assigns it and
 * decides, as `stepDone` does), or a reply that needs a decision
 * (`model.reply`, the final answer included) carrying it as `loop`, or a
 * `steps.taken` with it just before a failed model call. Any
 * other step takes the full path (`model.reply`, then a `tool.settled` per
 * call), where the statechart shows and guards every model call and tool
 * batch.
 */

/** A fused step's reply and batch, done: the context fields the step changed. */
export interface StepDoneEvent {
  type: 'step.done';
  patch: Partial<AgentContext>;
}

/**
 * The fused loop's steps, done, with the next step's model call made by the
 * model caller and failed: the machine assigns the context fields the loop
 * changed (the step number and the empty draft of that call included) and
 * stays in `thinking` for the `model.failed` that follows.
 */
export interface StepsTakenEvent {
  type: 'steps.taken';
  patch: Partial<AgentContext>;
}

/** What a fused step (or loop) in flight shows the machine (kept on the run's runtime, never persisted). */
export interface FusedStepInFlight {
  /** The context fields the step (the loop, since the machine last heard from it) changed so far. */
  readonly patch: Partial<AgentContext>;
  /** Stops the step: running calls are aborted, late outcomes dropped. */
  stop(): void;
}

/**
 * Where a run's fused step meets its machine. An abort (or unusable tools)
 * ends the run in a final state that takes `current`'s patch first, so the
 * transcript holds what the step did, as it would from `acting`. While the
 * step runs machine step functions (`busy`), the machine keeps such events
 * in `deferred` and the step sends them back once it is done: the machine's
 * run-to-completion order, kept across the two actors.
 */
export interface FusedStepSlot {
  current: FusedStepInFlight | undefined;
  busy: boolean;
  deferred: AnyEventObject[];
  /**
   * Who hears the run events a fused step emits (see `onAgentEvents`): called
   * directly, as XState's `emit` would call them, without its per-event copy
   * of the listener list.
   */
  listeners: ((event: RunEvent) => void)[];
  /** The run's own model caller, made with its first model call (see `withModelCaller`); absent while it has a `model` child. */
  modelCaller: OwnModelCaller | undefined;
}

/** A run's empty slot (see `agentRuntime`). */
export const fusedStepSlot = (): FusedStepSlot => ({ current: undefined, busy: false, deferred: [], listeners: [], modelCaller: undefined });

/**
 * Emits a run event of a fused step to the run's listeners. A listener that
 * throws is reported as XState reports one (thrown in a later task), and the
 * others still hear the event.
 *
 * @example
 * emitFusedStepEvent(context.runtime.fusedStep, { type: 'tool.call', runId, agent, step, call });
 */
export function emitFusedStepEvent(slot: FusedStepSlot, event: RunEvent): void {
  for (const listener of slot.listeners) {
    try {
      listener(event);
    } catch (error) {
      setTimeout(() => {
        throw error;
      });
    }
  }
}

/**
 * Whether the step that starts now may be fused: the run has no tool rules
 * (their gate decides on every reply), no inspector (it is shown every
 * state), no durable checkpoints (they are taken at the reply and around the
 * batch), and this is not the last model call at a limit.
 */
export function stepMayFuse(context: AgentContext): boolean {
  const { runtime } = context;
  return (
    runtime.toolRules === undefined &&
    runtime.mirrorToolRules !== true &&
    runtime.inspected !== true &&
    runtime.checkpoints === undefined &&
    context.finalCall === undefined
  );
}

/**
 * Whether a reply's calls run without a decision of the machine: there are
 * some, no tool asks for approval, no `oneCallAtATime` call stands beside
 * others, and the run's tool-call budget covers them all — the checks the
 * full path makes on a reply (`runsWithoutScreening`, `prepareBatch`).
 * `context` is the step's: nothing changes it while the model answers.
 */
export function batchRunsWithoutDecision(context: AgentContext, calls: readonly ToolCall[]): boolean {
  if (calls.length === 0 || context.toolCallCount + calls.length > context.runtime.maxToolCalls) return false;
  const tools = context.runtime.liveTools;
  for (const call of calls) if ((tools.get(call.name)?.approval ?? 'never') !== 'never') return false;
  return oneCallAtATimeRefusals(offeredToolsNow(context), calls).size === 0;
}

/**
 * Whether the run simply goes on after a fused step: none of `stepDone`'s
 * endings fires on the context the step left, `context` with `patch` (keep
 * in step with `stepDone`). A run without tool rules is the only kind that
 * fuses, so the rules' endings never apply here.
 */
export function stepContinues(context: AgentContext, patch: Partial<AgentContext>): boolean {
  const { runtime } = context;
  const usage = patch.usage ?? context.usage;
  return (
    (patch.endedBy ?? context.endedBy) === undefined &&
    !tokenBudgetSpent({ runtime, usage }) &&
    (patch.step ?? context.step) < runtime.maxSteps &&
    (patch.toolCallCount ?? context.toolCallCount) < runtime.maxToolCalls &&
    (patch.consecutiveErrorBatches ?? context.consecutiveErrorBatches) < runtime.maxConsecutiveErrors
  );
}

/**
 * An agent run's context as it stands: the machine's, with what a fused
 * step in flight has done so far (its reply, the outcomes that came back).
 * Readers of a run in progress (a chat's partial turn) use it instead of
 * the snapshot's context, which catches up when the step is done.
 *
 * @example
 * const { messages, batch } = agentContextNow(speakerRun.getSnapshot().context);
 */
export function agentContextNow(context: AgentContext): AgentContext {
  const inFlight = context.runtime.fusedStep.current;
  return inFlight === undefined ? context : { ...context, ...inFlight.patch };
}
