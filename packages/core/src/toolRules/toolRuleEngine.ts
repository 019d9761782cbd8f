import { type ConditionalMatch, matchConditionalOutput } from './matchConditionalOutput.js';
import type { ToolRuleProgram } from './toolRuleProgram.js';
import type { ToolRuleType } from './toolRuleSchema.js';
import type { ToolRuleState } from './toolRuleState.js';

/**
 * The rule engine: pure functions over a compiled program and a rule state.
 * The compiled XState machine's guards and actions are these functions, so
 * the machine and everything that asks "which tools now?" agree by
 * construction.
 */

/** Why a call or the end of the run is not allowed now. */
export interface RuleBlock {
  /** The rule family that blocks it (`unnamedTool` when a rule set refuses tools it does not name). */
  rule: ToolRuleType | 'unnamedTool';
  /** A sentence for people and models, e.g. "after search only read, summarize may be called". */
  reason: string;
  /** For `requiredBeforeExit`: the tools still missing. */
  missing?: string[];
}

/** Which rule family (if any) forbids calling `tool` now. Fast: no strings are built. */
export function blockingRule(program: ToolRuleProgram, state: ToolRuleState, tool: string): ToolRuleType | null {
  if (state.phase !== 'running') return 'terminal';
  if (state.awaitingApproval !== null) return 'requiresApproval';
  const { branch, last } = state;
  if (branch?.status === 'pending') return 'conditional';
  if (last === null) {
    if (program.initTools !== null && !program.initTools.includes(tool)) return 'init';
  } else {
    const children = program.children.get(last);
    if (children !== undefined && !children.includes(tool)) return 'child';
  }
  if (branch?.status === 'chosen' && branch.next !== tool) return 'conditional';
  const limit = program.limits.get(tool);
  if (limit !== undefined && (state.counts[tool] ?? 0) >= limit) return 'maxCount';
  const parents = program.parentsOf.get(tool);
  if (parents !== undefined) for (const parent of parents) if (!state.called.includes(parent)) return 'parent';
  if (program.terminal.has(tool) && missingRequired(program, state, tool).length > 0) return 'requiredBeforeExit';
  return null;
}

/** Explains why `tool` may not be called now, or `null` when it may. */
export function explainBlockedCall(program: ToolRuleProgram, state: ToolRuleState, tool: string): RuleBlock | null {
  const rule = blockingRule(program, state, tool);
  if (rule === null) return null;
  const last = state.last ?? '';
  switch (rule) {
    case 'terminal':
      return { rule, reason: state.phase === 'failed' ? 'the run has failed' : 'the run has ended' };
    case 'requiresApproval':
      return { rule, reason: `the call of ${state.awaitingApproval ?? ''} is waiting for approval` };
    case 'conditional':
      return state.branch?.status === 'chosen'
        ? { rule, reason: `the output of ${state.branch.tool} selects ${state.branch.next} next` }
        : { rule, reason: `the output of ${last} decides the next tool: wait for its result before calling another tool` };
    case 'init':
      return { rule, reason: `the first tool call must be one of: ${(program.initTools ?? []).join(', ')}` };
    case 'child':
      return { rule, reason: `after ${last} only ${listOrNone(program.children.get(last))} may be called` };
    case 'maxCount':
      return { rule, reason: `${tool} may be called at most ${program.limits.get(tool) ?? 0} time(s) per run` };
    case 'parent': {
      const missing = (program.parentsOf.get(tool) ?? []).filter((parent) => !state.called.includes(parent));
      return { rule, reason: `${tool} may only be called after ${missing.join(' and ')} has been called` };
    }
    case 'requiredBeforeExit': {
      const missing = missingRequired(program, state, tool);
      return { rule, reason: `${tool} ends the run, which first needs ${missing.join(', ')}`, missing };
    }
    default:
      return { rule, reason: `${tool} is not allowed now` };
  }
}

/**
 * The tools that may be called now, in tool order. Never falls back to "all
 * tools": an empty list means no tool may be called.
 *
 * @example
 * allowedTools(program, initialToolRuleState()) // e.g. ['search'] with rules.init('search')
 */
export function allowedTools(program: ToolRuleProgram, state: ToolRuleState): string[] {
  if (state.phase !== 'running' || state.awaitingApproval !== null || state.branch?.status === 'pending') return [];
  let candidates: readonly string[] = program.tools;
  if (state.last === null) candidates = program.initTools ?? program.tools;
  else candidates = program.children.get(state.last) ?? (state.branch?.status === 'chosen' ? [state.branch.next] : program.tools);
  const allowed: string[] = [];
  for (const tool of candidates) if (blockingRule(program, state, tool) === null) allowed.push(tool);
  return allowed;
}

/** Why the run may not end now (by a final answer), or `null` when it may. */
export function explainBlockedEnd(program: ToolRuleProgram, state: ToolRuleState): RuleBlock | null {
  if (state.phase !== 'running') return null;
  if (state.awaitingApproval !== null) {
    return { rule: 'requiresApproval', reason: `the call of ${state.awaitingApproval} is waiting for approval` };
  }
  const { last, branch } = state;
  if (branch?.status === 'pending') return { rule: 'conditional', reason: `the output of ${branch.tool} is not known yet` };
  if (last === null && program.initTools !== null) {
    return { rule: 'init', reason: `the run must start with a call of one of: ${program.initTools.join(', ')}` };
  }
  if (last !== null && program.children.has(last)) {
    const children = program.children.get(last) ?? [];
    const which = children.length === 1 ? children[0] : `one of ${listOrNone(children)}`;
    return { rule: 'child', reason: `after ${last}, ${which} must be called` };
  }
  if (branch?.status === 'chosen') {
    return { rule: 'conditional', reason: `the output of ${branch.tool} selects ${branch.next}, which must be called next` };
  }
  if (last !== null && program.continueTools.has(last)) {
    return { rule: 'continue', reason: `the run may not end right after ${last}: call another tool` };
  }
  const missing = missingRequired(program, state, null);
  if (missing.length > 0) {
    return { rule: 'requiredBeforeExit', reason: `before finishing, call ${missing.join(', ')}`, missing };
  }
  return null;
}

/** Whether the run may end now with a final answer. */
export const canEnd = (program: ToolRuleProgram, state: ToolRuleState): boolean => explainBlockedEnd(program, state) === null;

/**
 * The state after an allowed call of `tool`. A tool that requires approval
 * first waits (`awaitingApproval`); `approveCall` completes it.
 */
export function applyCall(program: ToolRuleProgram, state: ToolRuleState, tool: string): ToolRuleState {
  if (program.requiresApproval.has(tool)) return { ...state, awaitingApproval: tool };
  return admitCall(program, state, tool);
}

/** The state after the waiting call was approved: it counts as called. */
export function approveCall(program: ToolRuleProgram, state: ToolRuleState): ToolRuleState {
  const tool = state.awaitingApproval;
  if (tool === null) return state;
  return admitCall(program, { ...state, awaitingApproval: null }, tool);
}

/** The state after the waiting call was rejected: as if it had never been made. */
export const rejectCall = (state: ToolRuleState): ToolRuleState => ({ ...state, awaitingApproval: null });

function admitCall(program: ToolRuleProgram, state: ToolRuleState, tool: string): ToolRuleState {
  const next: ToolRuleState = {
    ...state,
    last: tool,
    // After a terminal tool the run is over: its output picks nothing.
    branch: program.conditional.has(tool) && !program.terminal.has(tool) ? { status: 'pending', tool } : null,
    phase: program.terminal.has(tool) ? 'done' : state.phase,
  };
  const limit = program.limits.get(tool);
  if (limit !== undefined) next.counts = countCall(program, state.counts, tool, limit);
  if (program.trackedIndex.has(tool) && !state.called.includes(tool)) {
    // Kept in tool order, so equal states serialize equally.
    const rank = program.trackedIndex.get(tool) as number;
    const at = state.called.findIndex((name) => (program.trackedIndex.get(name) as number) > rank);
    next.called = at === -1 ? [...state.called, tool] : [...state.called.slice(0, at), tool, ...state.called.slice(at)];
  }
  return next;
}

/**
 * The counts after one more call of `tool`, capped at its limit. Keys stay in
 * tool order, so equal states serialize equally (graph enumeration relies on it).
 */
function countCall(program: ToolRuleProgram, counts: Record<string, number>, tool: string, limit: number): Record<string, number> {
  const previous = counts[tool];
  if (previous !== undefined) return { ...counts, [tool]: Math.min(limit, previous + 1) };
  const ordered: Record<string, number> = {};
  const present = new Set([...Object.keys(counts), tool]);
  for (const name of program.tools) if (present.has(name)) ordered[name] = name === tool ? Math.min(limit, 1) : (counts[name] as number);
  return ordered;
}

/**
 * The state after the conditional tool that ran last returned `output`, and
 * how the output matched. `unmatched` (with `requireMatch`) fails the state.
 */
export function applyOutput(
  program: ToolRuleProgram,
  state: ToolRuleState,
  output: unknown,
): { state: ToolRuleState; match: ConditionalMatch | null } {
  const { branch } = state;
  if (branch?.status !== 'pending') return { state, match: null };
  const rule = program.conditional.get(branch.tool);
  if (rule === undefined) return { state: { ...state, branch: null }, match: null };
  const match = matchConditionalOutput(rule, output);
  switch (match.kind) {
    case 'case':
    case 'default':
      return { state: { ...state, branch: { status: 'chosen', tool: branch.tool, next: match.next } }, match };
    case 'open':
      return { state: { ...state, branch: { status: 'open', tool: branch.tool } }, match };
    case 'unmatched':
      return { state: { ...state, branch: null, phase: 'failed' }, match };
  }
}

/** The state after the run ended with a final answer (only valid when `canEnd`). */
export const applyEnd = (state: ToolRuleState): ToolRuleState => ({ ...state, phase: 'done' });

/**
 * Arguments the rules prefill for a call of `tool` in this state (init args
 * before the first call, a child rule's args right after its tool); they
 * override the model's values for the same keys.
 */
export function prefilledArgs(program: ToolRuleProgram, state: ToolRuleState, tool: string): Readonly<Record<string, unknown>> | undefined {
  if (state.last === null) return program.initArgs.get(tool);
  return program.childArgs.get(state.last)?.get(tool);
}

/** Required-before-exit tools not called yet (ignoring `except`, a tool that would satisfy itself). */
export function missingRequired(program: ToolRuleProgram, state: ToolRuleState, except: string | null): string[] {
  const missing: string[] = [];
  for (const tool of program.required) if (tool !== except && !state.called.includes(tool)) missing.push(tool);
  return missing;
}

function listOrNone(tools: readonly string[] | undefined): string {
  return tools && tools.length > 0 ? tools.join(', ') : 'no tool';
}
