import {
  type CompiledToolRules,
  type ErrorInfo,
  type ToolRuleState,
  type ToolRulesEvent,
  ToolRulesError,
  type UserMessage,
  allowedTools,
  applyOutput,
  explainBlockedEnd,
} from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import type { ToolOutcome } from '../machine/toolOutcome.js';
import { lastAdmittedIndex } from './toolRulesGate.js';

/**
 * After a batch ran: feeds the output of the conditional tool it admitted
 * (if any) to the rules. An output that matches no case of a `requireMatch`
 * rule fails the run with `TOOL_RULE_OUTPUT_UNMATCHED`.
 */
export function applyBatchOutputs(
  rules: CompiledToolRules,
  state: ToolRuleState,
  batch: { calls: readonly { name: string }[]; outcomes: readonly (ToolOutcome | undefined)[]; admitted: readonly boolean[] },
): { state: ToolRuleState; events: ToolRulesEvent[]; error?: ErrorInfo } {
  const { branch } = state;
  if (branch?.status !== 'pending') return { state, events: [] };
  const outcome = batch.outcomes[lastAdmittedIndex(batch, branch.tool)];
  // A call that failed returned nothing: it matches no case.
  const value = outcome && !outcome.isError ? outcome.value : undefined;
  const next = applyOutput(rules.program, state, value);
  const events: ToolRulesEvent[] = [{ type: 'output', value }];
  if (next.match?.kind !== 'unmatched') return { state: next.state, events };
  const error = new ToolRulesError(
    'TOOL_RULE_OUTPUT_UNMATCHED',
    `The output of ${branch.tool} (${JSON.stringify(value) ?? 'undefined'}) matches none of its conditional cases and the rule requires a match. ` +
      'Add a case or a default child, or drop requireMatch.',
    { tool: branch.tool, output: value },
  );
  return { state: next.state, events, error: toErrorInfo(error) };
}

/**
 * The message that answers a final answer the rules do not accept yet, e.g.
 * "You cannot finish yet: before finishing, call save. Call save now."
 */
export function endReminder(rules: CompiledToolRules, state: ToolRuleState): UserMessage | undefined {
  const block = explainBlockedEnd(rules.program, state);
  if (block === null) return undefined;
  const allowed = allowedTools(rules.program, state);
  const next =
    allowed.length === 0 ? 'No tool may be called now.' : allowed.length === 1 ? `Call ${allowed[0]} now.` : `Call one of: ${allowed.join(', ')}.`;
  return { role: 'user', content: `[tool rules] You cannot finish yet: ${block.reason}. ${next}` };
}
