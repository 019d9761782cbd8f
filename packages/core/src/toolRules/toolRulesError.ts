import { AgentchartError } from '../errors.js';

/**
 * Stable codes of tool-rule errors:
 * - `TOOL_RULES_INVALID`: a rule does not match either accepted form.
 * - `TOOL_RULES_UNKNOWN_TOOL`: a rule names a tool the agent does not have.
 * - `TOOL_RULES_CONFLICT`: two rules contradict each other on one tool.
 * - `TOOL_RULES_DEADLOCK`: some call sequence reaches a state where no tool is
 *   allowed and the run may not end (`details.path` is the shortest one).
 * - `TOOL_RULE_OUTPUT_UNMATCHED`: at run time, a conditional tool with
 *   `requireMatch` returned an output that matches no case.
 */
export type ToolRulesErrorCode =
  | 'TOOL_RULES_INVALID'
  | 'TOOL_RULES_UNKNOWN_TOOL'
  | 'TOOL_RULES_CONFLICT'
  | 'TOOL_RULES_DEADLOCK'
  | 'TOOL_RULE_OUTPUT_UNMATCHED';

/**
 * A rule set that cannot be used, or a rule that failed a run.
 *
 * @example
 * try { compileToolRules([rules.child('a', [])], ['a']) }
 * catch (e) { if (e instanceof ToolRulesError && e.code === 'TOOL_RULES_DEADLOCK') console.log(e.details.path) }
 */
export class ToolRulesError extends AgentchartError {
  declare readonly code: ToolRulesErrorCode;

  constructor(code: ToolRulesErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
