/**
 * Where each event takes the agent machine, and what the transition does on
 * the way: the steps (see `agentSteps`) an event runs, and the state they
 * lead to. The machine's guards read the target (`leadsTo`) and its one
 * action writes the steps' work (`takeStep`); the plan is made once per
 * event and context, so the guards that read it and the action that writes
 * it cost one pass through the steps. Endings (limits, rules, middleware)
 * are decided on the context the steps leave, in the same transition: no
 * eventless state sits between a batch's last result and the next model call.
 */
import type { RunEvent } from '@agentchart/core';
import type { AnyEventObject } from 'xstate';
import type { AgentContext } from './agentContext.js';
import type { AgentMachineEvent } from './agentMachineEvent.js';
import { type AgentStep, type StepOutput, agentSteps } from './agentSteps.js';
import { pendingRequests } from './approvals.js';
import { needsScreening } from './needsScreening.js';
import { tokenBudgetSpent } from './runTokenBudget.js';
import { canEnd } from '@agentchart/core';

/** The states a transition of the agent machine may lead to. */
export type AgentTarget =
  | 'thinking'
  | 'screening'
  | 'acting'
  | 'done'
  | 'terminalToolCalled'
  | 'maxStepsReached'
  | 'tokenBudgetSpent'
  | 'limitReached'
  | 'endedByMiddleware'
  | 'failed';

/** Where a step that ends (a batch's results, an answer the rules do not take yet) may lead. */
export const AFTER_STEP = ['thinking', 'endedByMiddleware', 'failed', 'terminalToolCalled', 'tokenBudgetSpent', 'maxStepsReached'] as const;

/** What XState's `enqueue` gives a plan to write through. */
export interface PlanOutput {
  assign(patch: () => Partial<AgentContext>): void;
  emit(event: RunEvent): void;
  sendTo(childId: string, event: AnyEventObject): void;
}

/** A command to a child, recorded in a plan (a run event is recorded as itself). */
class ChildCommand {
  constructor(
    readonly childId: string,
    readonly command: AnyEventObject,
  ) {}
}

/** Work recorded for after the steps: a checkpoint of a run kept in a store. */
class Checkpoint {
  constructor(readonly take: () => void) {}
}

/** One piece of a plan's output, in order: a run event, a command to a child, or a checkpoint. */
type PlanOp = RunEvent | ChildCommand | Checkpoint;

/**
 * A transition's work, recorded: its target (none: the machine stays), the
 * context its steps leave (none: unchanged), and its events and commands in
 * order.
 */
export interface StepPlan {
  readonly target: AgentTarget | undefined;
  readonly next: AgentContext | undefined;
  readonly ops: readonly PlanOp[];
}

/**
 * Records steps' work against a private copy of the context (made at the
 * first write): the steps write through it (`StepOutput`), and it is the
 * plan it ends with (`to`).
 */
class Planner implements StepOutput, StepPlan {
  target: AgentTarget | undefined = undefined;
  /** The private copy, once a step has written. */
  next: AgentContext | undefined = undefined;
  now: AgentContext;
  readonly ops: PlanOp[] = [];
  readonly #context: AgentContext;
  readonly #event: AgentMachineEvent;

  constructor(context: AgentContext, event: AgentMachineEvent) {
    this.#context = context;
    this.#event = event;
    this.now = context;
  }

  assign(part: Partial<AgentContext>): void {
    if (this.next === undefined) this.now = this.next = { ...this.#context };
    // Writes into the copy's own fields: its shape never changes, where a patch grown key by key changes shape on every key.
    for (const key in part) (this.now as unknown as Record<string, unknown>)[key] = part[key as keyof AgentContext];
  }

  emit(runEvent: RunEvent): void {
    this.ops.push(runEvent);
  }

  sendTo(childId: string, command: AnyEventObject): void {
    this.ops.push(new ChildCommand(childId, command));
  }

  run(...steps: AgentStep[]): this {
    for (const step of steps) step(this.now, this.#event, this);
    return this;
  }

  /** A checkpoint of a run kept in a store, taken with the context as the steps so far left it. */
  checkpoint(point: 'modelReply' | 'batchStart' | 'batchEnd'): this {
    const checkpoints = this.#context.runtime.checkpoints;
    if (checkpoints !== undefined) {
      const at = { ...this.now };
      this.ops.push(new Checkpoint(() => checkpoints[point](at)));
    }
    return this;
  }

  to(target: AgentTarget | undefined): StepPlan {
    this.target = target;
    return this;
  }
}

/** After a step: the limits', the rules' and the middleware's endings, else the next model call. */
function afterStep(plan: Planner): StepPlan {
  const now = plan.now;
  const { runtime } = now;
  if (now.endedBy !== undefined) return plan.to('endedByMiddleware');
  if (now.rules?.phase === 'failed') return plan.to('failed');
  if (now.rules?.phase === 'done') return plan.to('terminalToolCalled');
  if (tokenBudgetSpent(now)) return plan.to('tokenBudgetSpent');
  if (now.step >= runtime.maxSteps) return plan.to('maxStepsReached');
  if (now.toolCallCount >= runtime.maxToolCalls) plan.run(finalCall('max-tool-calls'));
  else if (now.consecutiveErrorBatches >= runtime.maxConsecutiveErrors) plan.run(finalCall('max-consecutive-errors'));
  return plan.run(agentSteps.startStep).to('thinking');
}

const finalCall =
  (reason: NonNullable<AgentContext['finalCall']>): AgentStep =>
  (_context, _event, output) =>
    output.assign({ finalCall: reason });

/** A screened batch (or one that needs no screening) starts; one whose calls were all answered already ends at once. */
function startBatch(plan: Planner): StepPlan {
  plan.checkpoint('batchStart').run(agentSteps.settleRuleApproval, agentSteps.prepareBatch, agentSteps.runBatch);
  if (plan.now.batch.pending > 0) return plan.to('acting');
  return afterStep(plan.run(agentSteps.advanceRules, agentSteps.appendToolResults).checkpoint('batchEnd'));
}

function afterReply(plan: Planner, context: AgentContext, event: Extract<AgentMachineEvent, { type: 'model.reply' }>): StepPlan {
  plan.run(agentSteps.takeReply, agentSteps.appendReply);
  if (context.finalCall !== undefined) return plan.run(agentSteps.answerFinalReply).to('limitReached');
  if (event.reply.toolCalls.length > 0) {
    plan.run(agentSteps.startBatch).checkpoint('modelReply');
    return needsScreening(plan.now) ? plan.to('screening') : startBatch(plan);
  }
  const { toolRules } = context.runtime;
  if (toolRules !== undefined && context.rules !== undefined && !canEnd(toolRules.program, context.rules)) {
    return afterStep(plan.run(agentSteps.countMalformedReply, agentSteps.remindOfRules).checkpoint('modelReply'));
  }
  return plan.run(agentSteps.endRules, agentSteps.completeRun).to('done');
}

function decide(context: AgentContext, event: AgentMachineEvent): StepPlan {
  const plan = new Planner(context, event);
  // A resident agent's next turn (`turn`, see `residentAgent.ts`) starts as a run does.
  if ((event as AnyEventObject).type === 'turn') return plan.run(agentSteps.startStep).to('thinking');
  switch (event.type) {
    case 'start':
      return plan.run(agentSteps.startStep).to('thinking');
    case 'model.reply':
      return afterReply(plan, context, event);
    case 'tool.settled':
      plan.run(agentSteps.recordOutcome);
      if (plan.now.batch.pending > 0) return plan.to(undefined);
      return afterStep(plan.run(agentSteps.advanceRules, agentSteps.appendToolResults).checkpoint('batchEnd'));
    case 'approval.decide':
      plan.run(agentSteps.recordDecision);
      return pendingRequests(plan.now.approvals).length > 0 ? plan.to(undefined) : startBatch(plan);
    case 'resume':
      // A run restored from a checkpoint goes on from where it was taken.
      if (event.at === 'acting') return startBatch(plan);
      if (event.at === 'batchReady') return needsScreening(context) ? plan.to('screening') : startBatch(plan);
      return afterStep(plan);
    default:
      // The screening's result, when no call needs asking: the batch starts.
      return startBatch(plan);
  }
}

/**
 * The plan of the event being taken: its guards and its action read the same
 * one. One slot, not a map by event: a transition's guards and its action run
 * one after the other on the same event and context, and a slot keeps no
 * table of every event for the garbage collector to trace.
 */
const planned: { event: object | undefined; context: AgentContext | undefined; plan: StepPlan | undefined } = {
  event: undefined,
  context: undefined,
  plan: undefined,
};

/**
 * The plan of `event` in `context` (made once; see above).
 * @example
 * stepPlan(context, event).target; // 'acting'
 */
export function stepPlan(context: AgentContext, event: AgentMachineEvent): StepPlan {
  if (planned.event === event && planned.context === context) return planned.plan as StepPlan;
  const plan = decide(context, event);
  planned.event = event;
  planned.context = context;
  planned.plan = plan;
  return plan;
}

/**
 * The plan of `event` in `context` for the action that writes it: the slot
 * is emptied, so it holds no run's context past its transition.
 * @example
 * takeStep: enqueueActions(({ context, event, enqueue }) => writePlan(takePlan(context, event), enqueue)),
 */
export function takePlan(context: AgentContext, event: AgentMachineEvent): StepPlan {
  const plan = stepPlan(context, event);
  planned.event = planned.context = planned.plan = undefined;
  return plan;
}

/**
 * Writes a plan through XState's `enqueue`: its events and commands in
 * order, then its one `assign`.
 * @example
 * takeStep: enqueueActions(({ context, event, enqueue }) => writePlan(takePlan(context, event), enqueue)),
 */
export function writePlan(plan: StepPlan, output: PlanOutput): void {
  for (const op of plan.ops) {
    if (op instanceof ChildCommand) output.sendTo(op.childId, op.command);
    else if (op instanceof Checkpoint) op.take();
    else output.emit(op);
  }
  const { next } = plan;
  // A function, not the object: XState then takes the context as it is, without copying it key by key first.
  if (next !== undefined) output.assign(() => next);
}

/**
 * The transitions of an event that takes a step: one per state it may lead
 * to, each guarded by the plan's target, each with the one action.
 * @example
 * on: { 'tool.settled': stepTransitions('acting', ...AFTER_STEP) }
 */
export function stepTransitions(...targets: (AgentTarget | 'stay')[]) {
  return targets.map((to) =>
    to === 'stay'
      ? { actions: 'takeStep' as const }
      : { guard: { type: 'leadsTo' as const, params: { to } }, target: to, actions: 'takeStep' as const },
  );
}
