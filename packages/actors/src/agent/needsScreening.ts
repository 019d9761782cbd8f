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
  const { batch } = context;
  const tools = context.runtime.liveTools;
  const refused = oneCallAtATimeRefusals(tools.list(), batch.calls);
  const toolAsks = batch.calls.some(
    (call, index) =>
      batch.outcomes[index] === undefined && !refused.has(index) && (tools.get(call.name)?.approval ?? 'never') !== 'never',
  );
  return toolAsks || withRuleApprovals([], context.rules, batch, context.step).length > 0;
}
