import type { AgentContext } from './agentContext.js';
import type { AgentMachineEvent } from './agentMachine.js';
import { tokenBudgetSpent } from './runTokenBudget.js';

/**
 * The two shortcuts of the common step: a reply whose calls need no approval
 * screening goes straight to `acting`, and the last outcome of a batch that
 * triggers none of `stepDone`'s endings goes straight back to `thinking`.
 * Each saves a pass through an eventless state (about a fifth of a step's
 * cost, docs/performance.md). Runs with tool rules always take the long way:
 * their gate and their conditional outputs decide there.
 *
 * Keep `continuesAfterBatch` in step with `stepDone`: it must be false
 * whenever one of `stepDone`'s checks other than the plain `thinking` would
 * fire after this outcome.
 */

/** A model reply with tool calls, no rules, and no call of a tool whose approval is not `never`. */
export function runsWithoutScreening(context: AgentContext, event: AgentMachineEvent): boolean {
  if (event.type !== 'model.reply' || event.reply.toolCalls.length === 0 || context.runtime.toolRules !== undefined) return false;
  const tools = context.runtime.liveTools;
  return event.reply.toolCalls.every((call) => (tools.get(call.name)?.approval ?? 'never') === 'never');
}

/** The last outcome of a batch, after which the run simply calls the model again. */
export function continuesAfterBatch(context: AgentContext, event: AgentMachineEvent): boolean {
  if (event.type !== 'tool.settled' || context.batch.pending !== 1 || context.runtime.toolRules !== undefined) return false;
  const { runtime } = context;
  if (event.outcome.endsRun || context.endedBy !== undefined) return false;
  if (context.step >= runtime.maxSteps || context.toolCallCount >= runtime.maxToolCalls || tokenBudgetSpent(context)) return false;
  const failed =
    context.draft.malformed !== undefined || event.outcome.isError || context.batch.outcomes.some((outcome) => outcome?.isError === true);
  return !(failed && context.consecutiveErrorBatches + 1 >= runtime.maxConsecutiveErrors);
}
