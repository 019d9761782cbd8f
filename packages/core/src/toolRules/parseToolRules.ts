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
 * (`TOOL_RULES_INVALID`) naming the first bad rule and what is wrong with it
 * (a conditional rule without cases included).
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
    if (parsed.success) return withCases(parsed.data, index, rule);
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(rule)'}: ${issue.message}`);
    throw new ToolRulesError(
      'TOOL_RULES_INVALID',
      `Tool rule ${index} (${JSON.stringify(rule)}) is not valid: ${problems.join('; ')}. ` +
        'Use the rules builder (rules.init("search"), ...) or Letta JSON ({ "type": "run_first", "tool_name": "search" }).',
      { index, rule, issues: problems },
    );
  });
}

/**
 * A conditional rule must have a case (Letta's schema refuses an empty
 * `child_output_mapping` too): without one its output picks nothing, and with
 * `requireMatch` every call of the tool would fail the run.
 */
function withCases(rule: ToolRule, index: number, input: unknown): ToolRule {
  if (rule.type !== 'conditional' || rule.cases.length > 0) return rule;
  throw new ToolRulesError(
    'TOOL_RULES_INVALID',
    `Tool rule ${index} (${JSON.stringify(input)}) is a conditional rule on "${rule.tool}" with no cases, so its output could pick no tool` +
      `${rule.requireMatch === true && rule.defaultChild === undefined ? ' and every call of it would fail the run (requireMatch)' : ''}. ` +
      `Give it at least one case: rules.conditional('${rule.tool}', { cases: [['yes', 'publish']] }) (Letta: "child_output_mapping": { "yes": "publish" }), ` +
      `or use rules.child('${rule.tool}', ['publish']) when the next tool does not depend on its output.`,
    { index, rule: input, issues: ['cases: at least one case is needed'] },
  );
}
