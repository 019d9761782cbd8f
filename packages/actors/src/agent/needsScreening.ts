import type { ToolCall } from '@agentchart/core';
import type { AgentContext } from './agentContext.js';
import { oneCallAtATimeRefusals } from './oneCallAtATime.js';
import { withRuleApprovals } from './toolRulesApprovals.js';

/**
 * Whether a batch must be screened for approvals before it runs: some call
 * still to run (not refused by the rules or as a `oneCallAtATime` call beside
 * others) is of a tool whose approval is not `never`, or a
 * `requiresApproval` rule holds one. Most batches need none, and skip the
 * screening actor.
 */
export function needsScreening(context: AgentContext): boolean {
  const tools = context.runtime.liveTools;
  const toolAsks = callsToScreen(context).some((call) => (tools.get(call.name)?.approval ?? 'never') !== 'never');
  return toolAsks || withRuleApprovals([], context.rules, context.batch, context.step).length > 0;
}

/** The calls of the batch that may still run: not refused by the rules, nor as a `oneCallAtATime` call beside others. */
export function callsToScreen(context: AgentContext): ToolCall[] {
  const { batch } = context;
  const refused = oneCallAtATimeRefusals(context.runtime.liveTools.list(), batch.calls);
  return batch.calls.filter((_, index) => batch.outcomes[index] === undefined && !refused.has(index));
}
