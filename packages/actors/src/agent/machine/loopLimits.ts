import type { ToolCall } from '@agentchart/core';
import type { AgentContext } from './agentContext.js';
import type { ToolOutcome } from './toolOutcome.js';
import type { AgentRuntime } from './agentContext.js';
import { type ApprovalState, rejectedOutcome } from './approvals.js';

/**
 * The calls of a batch that are answered without running, in call order:
 * calls beyond the run's tool-call budget (`maxToolCalls` is a hard cap: the
 * first calls of the batch run, the rest are told the limit was reached), and
 * calls the user rejected. The budget goes by position, as it did when the
 * batch was screened (see `callsToScreen`): a rejected call keeps its place,
 * so no call beyond the budget runs without having been screened.
 * `undefined` marks a call that runs.
 */
export function answeredBeforeExecution(
  calls: readonly ToolCall[],
  approvals: ApprovalState,
  executedSoFar: number,
  maxToolCalls: number,
): (ToolOutcome | undefined)[] {
  let budget = maxToolCalls - executedSoFar;
  return calls.map((call) => {
    if (budget <= 0) {
      return { content: `Not executed: this run may execute at most ${maxToolCalls} tool calls (maxToolCalls).`, isError: true };
    }
    budget -= 1;
    // No requests, no decisions: most batches skip the lookup by the call's id.
    const decision = approvals.requests.length === 0 ? undefined : approvals.decisions[call.id];
    return decision !== undefined && !decision.approved ? rejectedOutcome(call.name, decision) : undefined;
  });
}

/** What the model sees for a tool call in the last, tool-less reply of a run that hit a limit. */
export function limitReachedOutcome(
  limit: 'max-tool-calls' | 'max-consecutive-errors',
  runtime: Pick<AgentRuntime, 'maxToolCalls' | 'maxConsecutiveErrors'>,
): ToolOutcome {
  const why =
    limit === 'max-tool-calls'
      ? `the run reached its limit of ${runtime.maxToolCalls} tool calls (maxToolCalls)`
      : `tool calls failed, or replies could not be used, in ${runtime.maxConsecutiveErrors} iterations in a row (maxConsecutiveErrors)`;
  return { content: `Not executed: ${why}, and tools are disabled for the rest of the run.`, isError: true };
}

/**
 * The count of failing iterations in a row once a step's batch is done: one
 * more when a call of the batch failed or the step's reply was one the
 * provider could not use and asked again for (`model.malformed`), else 0 (a
 * good step resets it).
 *
 * @example
 * consecutiveErrorsAfterBatch({ consecutiveErrorBatches: 1, draft: { ...reply, malformed: 1 } }, false); // 2
 */
export function consecutiveErrorsAfterBatch(context: Pick<AgentContext, 'consecutiveErrorBatches' | 'draft'>, batchFailed: boolean): number {
  return batchFailed || context.draft.malformed !== undefined ? context.consecutiveErrorBatches + 1 : 0;
}
