import type { ToolCall } from '@agentchart/core';
import type { AgentContext } from './agentContext.js';
import type { ApprovalRequest } from './approvals.js';
import { oneCallAtATimeRefusals } from './oneCallAtATime.js';
import { withRuleApprovals } from '../toolRules/toolRulesApprovals.js';

/**
 * Whether a batch must be screened for approvals before it runs: some call
 * that will run (see `callsToScreen`) is of a tool whose approval is not
 * `never`, or a `requiresApproval` rule holds one. Most batches need none,
 * and skip the screening actor.
 */
export function needsScreening(context: AgentContext): boolean {
  const tools = context.runtime.liveTools;
  for (const call of callsToScreen(context)) if ((tools.get(call.name)?.approval ?? 'never') !== 'never') return true;
  // Only a rule that holds a call for approval asks besides the tools.
  return (context.rules?.awaitingApproval ?? null) !== null && requestsToAsk([], context).length > 0;
}

/**
 * The calls of the batch that will run unless a person rejects them: not
 * refused by the rules, nor as a `oneCallAtATime` call beside others, and
 * within the run's tool-call budget (`maxToolCalls`). The budget goes to the
 * first such calls of the batch, before anyone is asked (see
 * `answeredBeforeExecution`), so a call beyond it is never put to a person.
 */
export function callsToScreen(context: AgentContext): readonly ToolCall[] {
  const { batch } = context;
  const refused = oneCallAtATimeRefusals(context.runtime.liveTools.view(), batch.calls);
  const budget = Math.max(0, context.runtime.maxToolCalls - context.toolCallCount);
  // Every call open, none refused, all within the budget (most batches): the batch's own list, not a copy.
  if (batch.pending === batch.calls.length && refused.size === 0 && budget >= batch.calls.length) return batch.calls;
  const open = batch.calls.filter((_, index) => batch.outcomes[index] === undefined && !refused.has(index));
  return open.slice(0, budget);
}

/**
 * The approval requests to put to a person: the tools' `requests` plus the
 * call a `requiresApproval` rule holds, each only if its call will run (see
 * `callsToScreen`).
 *
 * @example
 * requestsToAsk(screened, context).map((request) => request.id); // ['pay_bob']
 */
export function requestsToAsk(requests: readonly ApprovalRequest[], context: AgentContext): ApprovalRequest[] {
  const willRun = new Set(callsToScreen(context).map((call) => call.id));
  return withRuleApprovals(requests, context.rules, context.batch, context.step).filter((request) => willRun.has(request.id));
}
