import { allowedTools, explainBlockedEnd } from './toolRuleEngine.js';
import type { ToolRuleProgram } from './toolRuleProgram.js';
import type { ToolRule } from './toolRuleSchema.js';
import type { ToolRuleState } from './toolRuleState.js';

/**
 * The system-prompt section that tells the model the rules and what they
 * allow right now; render it again after every step.
 *
 * @example
 * renderToolRulesPrompt(compiled.program, state);
 * // "Tool rules:\n- After search, call one of: read, summarize.\n...\n" +
 * // "Now: after search, one of read, summarize must be called; you must call one of: read, summarize."
 */
export function renderToolRulesPrompt(program: ToolRuleProgram, state: ToolRuleState): string {
  const lines = ['Tool rules:', ...program.rules.map((rule) => `- ${describeRule(rule)}`), `Now: ${describeNow(program, state)}`];
  return lines.join('\n');
}

/** One rule as a sentence. */
export function describeRule(rule: ToolRule): string {
  switch (rule.type) {
    case 'init':
      return `Call ${rule.tool} first.`;
    case 'terminal':
      return `Calling ${rule.tool} ends the run.`;
    case 'continue':
      return `After ${rule.tool}, keep working: do not finish right after it.`;
    case 'child':
      return `After ${rule.tool}, call one of: ${rule.children.join(', ') || '(none)'}.`;
    case 'parent':
      return `Call ${rule.tool} before any of: ${rule.children.join(', ')}.`;
    case 'conditional': {
      const cases = rule.cases.map((entry) => `${JSON.stringify(entry.when)} → ${entry.then}`);
      const otherwise = rule.defaultChild ?? (rule.requireMatch ? 'the run fails' : 'any tool');
      return `The result of ${rule.tool} picks the next tool: ${[...cases, `otherwise ${otherwise}`].join(', ')}.`;
    }
    case 'maxCount':
      return `Call ${rule.tool} at most ${rule.limit} time(s).`;
    case 'requiredBeforeExit':
      return `Call ${rule.tool} before finishing.`;
    case 'requiresApproval':
      return `Calls of ${rule.tool} need a person's approval.`;
  }
}

function describeNow(program: ToolRuleProgram, state: ToolRuleState): string {
  const allowed = allowedTools(program, state);
  const endBlock = explainBlockedEnd(program, state);
  if (state.phase !== 'running') return 'the run has ended.';
  if (endBlock === null) {
    return allowed.length > 0 ? `you may call ${allowed.join(', ')}, or answer.` : 'no tool may be called: answer now.';
  }
  if (allowed.length === 0) return `${endBlock.reason}; no tool is allowed now.`;
  const what = allowed.length === 1 ? `call ${allowed[0]}` : `call one of: ${allowed.join(', ')}`;
  return `${endBlock.reason}; you must ${what}.`;
}
