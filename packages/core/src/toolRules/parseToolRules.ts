import { z } from 'zod';
import { LettaToolRuleSchema, fromLettaToolRule } from './lettaToolRules.js';
import { type ToolRule, ToolRuleSchema } from './toolRuleSchema.js';
import { ToolRulesError } from './toolRulesError.js';

/** A rule in either accepted form: agentchart's (`rules.*`) or Letta's JSON. */
export type ToolRuleInput = ToolRule | Record<string, unknown>;

const AnyToolRuleSchema = z.union([ToolRuleSchema, LettaToolRuleSchema.transform(fromLettaToolRule)]);

/**
 * Validates rules in agentchart's form or Letta's JSON form (mixed freely) and
 * returns them in agentchart's form. Throws `ToolRulesError`
 * (`TOOL_RULES_INVALID`) naming the first bad rule and what is wrong with it.
 *
 * @example
 * parseToolRules([{ type: 'run_first', tool_name: 'search' }, rules.terminal('answer')]);
 * // [{ type: 'init', tool: 'search' }, { type: 'terminal', tool: 'answer' }]
 */
export function parseToolRules(input: readonly unknown[]): ToolRule[] {
  if (!Array.isArray(input)) {
    throw new ToolRulesError('TOOL_RULES_INVALID', 'Tool rules must be an array, e.g. [rules.init("search")].', {
      received: typeof input,
    });
  }
  return input.map((rule, index) => {
    const parsed = AnyToolRuleSchema.safeParse(rule);
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(rule)'}: ${issue.message}`);
    throw new ToolRulesError(
      'TOOL_RULES_INVALID',
      `Tool rule ${index} (${JSON.stringify(rule)}) is not valid: ${problems.join('; ')}. ` +
        'Use the rules builder (rules.init("search"), ...) or Letta JSON ({ "type": "run_first", "tool_name": "search" }).',
      { index, rule, issues: problems },
    );
  });
}
