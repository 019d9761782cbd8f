import { type CompiledToolRules, type ToolCall, type ToolRuleState, type ToolRulesEvent, approveCall, rejectCall } from '@agentchart/core';
import type { ApprovalRequest, ApprovalState } from '../machine/approvals.js';
import { lastAdmittedIndex } from './toolRulesGate.js';

interface GatedCalls {
  calls: readonly ToolCall[];
  admitted?: readonly boolean[];
}

/** The admitted call the rule machine waits on for approval (a `requiresApproval` rule), if any. */
function awaitingCall(state: ToolRuleState | undefined, batch: GatedCalls): ToolCall | undefined {
  const tool = state?.awaitingApproval;
  if (tool === null || tool === undefined) return undefined;
  return batch.calls[lastAdmittedIndex(batch, tool)];
}

/**
 * The approval requests of a batch: those the tools asked for, plus the call
 * a `requiresApproval` rule holds (once, in call order).
 */
export function withRuleApprovals(
  requests: readonly ApprovalRequest[],
  state: ToolRuleState | undefined,
  batch: GatedCalls,
  step: number,
): ApprovalRequest[] {
  const call = awaitingCall(state, batch);
  if (call === undefined || requests.some((request) => request.id === call.id)) return [...requests];
  const all = [...requests, { id: call.id, toolName: call.name, arguments: call.arguments, step }];
  const order = new Map(batch.calls.map((candidate, index) => [candidate.id, index]));
  return all.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

/**
 * Moves the rules with the human decision on the call they hold: approved, it
 * counts as called; rejected, it is as if it had never been made.
 */
export function settleRuleApproval(
  rules: CompiledToolRules,
  state: ToolRuleState,
  batch: GatedCalls,
  approvals: ApprovalState,
): { state: ToolRuleState; events: ToolRulesEvent[] } {
  const call = awaitingCall(state, batch);
  if (call === undefined) return { state, events: [] };
  return approvals.decisions[call.id]?.approved === true
    ? { state: approveCall(rules.program, state), events: [{ type: 'approve' }] }
    : { state: rejectCall(state), events: [{ type: 'reject' }] };
}
