import type { RuleBlock } from './toolRuleEngine.js';
import type { ToolRuleProgram } from './toolRuleProgram.js';
import type { ToolRuleState } from './toolRuleState.js';

/**
 * What a rule set does with a tool it was not compiled with (a tool added
 * during the run by `ctx.addTools` and not listed in `addableTools`):
 * - `'where-free'` (the default): allowed only where the rules leave the
 *   choice of tool free — not before an init tool, not right after a tool
 *   with child rules or a conditional tool whose output picked the next tool,
 *   not while a conditional output or an approval is pending, not after the
 *   run has ended;
 * - `'refuse'`: never allowed.
 */
export type UnnamedToolPolicy = 'where-free' | 'refuse';

/** The rule family reported when a rule set refuses a tool it does not name. */
export const UNNAMED_TOOL_RULE = 'unnamedTool';

/**
 * Why a call of a tool the rules do not name may not run now, or `null` when
 * it may. Such a call, when it runs, leaves the rule state as it is: the
 * rules know nothing about it.
 *
 * @example
 * unnamedToolBlock(program, initialToolRuleState(), 'where-free'); // { rule: 'init', ... } under rules.init('search')
 */
export function unnamedToolBlock(program: ToolRuleProgram, state: ToolRuleState, policy: UnnamedToolPolicy, tool: string): RuleBlock | null {
  if (state.phase !== 'running') return { rule: 'terminal', reason: state.phase === 'failed' ? 'the run has failed' : 'the run has ended' };
  if (state.awaitingApproval !== null) {
    return { rule: 'requiresApproval', reason: `the call of ${state.awaitingApproval} is waiting for approval` };
  }
  const { last, branch } = state;
  if (branch?.status === 'pending') {
    return { rule: 'conditional', reason: `the output of ${branch.tool} decides the next tool: wait for its result before calling another tool` };
  }
  if (policy === 'refuse') {
    return { rule: UNNAMED_TOOL_RULE, reason: `${tool} is not named by the tool rules, which allow only the tools they were compiled with` };
  }
  if (last === null && program.initTools !== null) {
    return { rule: 'init', reason: `the first tool call must be one of: ${program.initTools.join(', ')}` };
  }
  const children = last === null ? undefined : program.children.get(last);
  if (children !== undefined) {
    return { rule: 'child', reason: `after ${last} only ${children.length > 0 ? children.join(', ') : 'no tool'} may be called` };
  }
  if (branch?.status === 'chosen') return { rule: 'conditional', reason: `the output of ${branch.tool} selects ${branch.next} next` };
  return null;
}
