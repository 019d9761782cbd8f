import { allowedTools, applyCall, approveCall, canEnd, explainBlockedCall, explainBlockedEnd } from './toolRuleEngine.js';
import type { ToolRuleProgram } from './toolRuleProgram.js';
import { type ToolRuleState, initialToolRuleState } from './toolRuleState.js';

/** One call on a path through the rules; `output` says which conditional branch was taken. */
export interface RulePathStep {
  tool: string;
  /** For a conditional tool: `matches <key>` or `matches no case`. */
  output?: string;
}

/** A reachable state where no tool may be called and the run may not end. */
export interface Deadlock {
  /** The shortest call sequence from the start of a run that reaches it. */
  path: RulePathStep[];
  state: ToolRuleState;
  /** Why the run may not end there. */
  reason: string;
  /** Why each tool the position would allow is blocked there (counts, parents, required tools). */
  blocked: { tool: string; reason: string }[];
}

/** A finding of the analysis that does not stop compilation. */
export interface ToolRuleWarning {
  code: 'TOOL_NEVER_RUNNABLE' | 'TERMINAL_TOOL_UNREACHABLE' | 'RUN_CAN_NEVER_END' | 'TOOL_RULES_ANALYSIS_INCOMPLETE';
  message: string;
  tool?: string;
}

/** What the static analysis found. */
export interface ToolRuleAnalysis {
  /** Reachable rule states explored. */
  states: number;
  /** False when the state limit stopped the exploration early. */
  complete: boolean;
  /** The first deadlock found (breadth-first, so with the shortest path), if any. */
  deadlock: Deadlock | null;
  /** Tools allowed in at least one reachable state. */
  runnable: ReadonlySet<string>;
  warnings: ToolRuleWarning[];
}

/**
 * Explores every reachable rule state breadth-first (each allowed call, and
 * for a conditional tool each branch its output can pick) and reports the
 * first deadlock with its shortest path, the tools that can never run, and
 * the terminal tools that can never be reached.
 */
export function analyzeToolRules(program: ToolRuleProgram, maxStates: number): ToolRuleAnalysis {
  const start = initialToolRuleState();
  const startKey = stateKey(null, '', memoKey(start));
  const seen = new Map<string, { parent: string | null; step: RulePathStep | null }>([[startKey, { parent: null, step: null }]]);
  const queue: { state: ToolRuleState; memo: string; key: string }[] = [{ state: start, memo: memoKey(start), key: startKey }];
  const outcomes = new Map<string, CallOutcome[]>();
  const runnable = new Set<string>();
  let complete = true;
  let deadlock: Deadlock | null = null;
  let endReachable = false;

  for (let head = 0; head < queue.length; head++) {
    const { state, memo, key } = queue[head] as (typeof queue)[number];
    const allowed = allowedTools(program, state);
    const mayEnd = canEnd(program, state);
    endReachable ||= mayEnd;
    if (allowed.length === 0 && !mayEnd) {
      deadlock = {
        path: pathTo(seen, key),
        state,
        reason: explainBlockedEnd(program, state)?.reason ?? '',
        blocked: blockedByMemory(program, state),
      };
      break;
    }
    for (const tool of allowed) {
      runnable.add(tool);
      if (program.terminal.has(tool)) {
        endReachable = true;
        continue; // the run ends there
      }
      // Most calls change only the last tool: their key is known before the state is built.
      const changesMemory = program.limits.has(tool) || (program.trackedIndex.has(tool) && !state.called.includes(tool));
      let admitted = changesMemory ? admit(program, state, tool) : undefined;
      const nextMemo = admitted ? memoKey(admitted) : memo;
      let toolOutcomes = outcomes.get(tool);
      if (toolOutcomes === undefined) {
        toolOutcomes = callOutcomes(program, tool);
        outcomes.set(tool, toolOutcomes);
      }
      for (const outcome of toolOutcomes) {
        const nextKey = stateKey(tool, outcome.branchKey, nextMemo);
        if (seen.has(nextKey)) continue;
        if (seen.size >= maxStates) {
          complete = false;
          continue;
        }
        admitted ??= admit(program, state, tool);
        const next = outcome.branch === null ? admitted : { ...admitted, branch: outcome.branch };
        seen.set(nextKey, { parent: key, step: outcome.step });
        queue.push({ state: next, memo: nextMemo, key: nextKey });
      }
    }
  }

  const warnings: ToolRuleWarning[] = [];
  if (!complete) {
    warnings.push({
      code: 'TOOL_RULES_ANALYSIS_INCOMPLETE',
      message: `The deadlock search stopped after ${maxStates} rule states: deadlocks beyond them are not ruled out. Raise maxAnalysisStates to search further.`,
    });
  }
  if (deadlock === null) {
    // Without the full state space, tools are judged by an optimistic reachability that never misses a runnable tool.
    const mayRun = complete ? runnable : optimisticallyRunnable(program);
    if (complete && !endReachable) {
      warnings.push({
        code: 'RUN_CAN_NEVER_END',
        message: 'No reachable state lets the run end (by a final answer or a terminal tool): every run will stop at maxSteps.',
      });
    }
    for (const tool of program.tools) {
      if (mayRun.has(tool)) continue;
      warnings.push(
        program.terminal.has(tool)
          ? { code: 'TERMINAL_TOOL_UNREACHABLE', tool, message: `Terminal tool "${tool}" can never be called, so it can never end a run.` }
          : { code: 'TOOL_NEVER_RUNNABLE', tool, message: `Tool "${tool}" can never be called under these rules.` },
      );
    }
  }
  return { states: seen.size, complete, deadlock, runnable, warnings };
}

/**
 * The tools that may run under an optimistic reading of memory: counts never
 * run out (unless a limit is 0) and a parent or required tool counts as
 * called once it can run anywhere. Polynomial, so it completes where the
 * exact search cannot; a tool missing here can never run.
 */
function optimisticallyRunnable(program: ToolRuleProgram): Set<string> {
  const runnable = new Set<string>();
  const mayRun = (tool: string) =>
    program.limits.get(tool) !== 0 &&
    (program.parentsOf.get(tool) ?? []).every((parent) => runnable.has(parent)) &&
    (!program.terminal.has(tool) || program.required.every((required) => required === tool || runnable.has(required)));
  for (let grew = true; grew; ) {
    grew = false;
    const seen = new Set<string>();
    const queue: (string | null)[] = [null];
    for (let head = 0; head < queue.length; head++) {
      const last = queue[head] as string | null;
      let candidates: readonly string[] = last === null ? (program.initTools ?? program.tools) : (program.children.get(last) ?? program.tools);
      const conditional = last === null ? undefined : program.conditional.get(last);
      if (conditional && !(conditional.defaultChild === undefined && !conditional.requireMatch)) {
        // Without an open "no match" branch, only the cases' targets and the default can follow.
        const branches = new Set([...conditional.cases.map((entry) => entry.then), conditional.defaultChild ?? '']);
        candidates = candidates.filter((tool) => branches.has(tool));
      }
      for (const tool of candidates) {
        if (!mayRun(tool)) continue;
        if (!runnable.has(tool)) {
          runnable.add(tool);
          grew = true;
        }
        if (!seen.has(tool) && !program.terminal.has(tool)) {
          seen.add(tool);
          queue.push(tool);
        }
      }
    }
  }
  return runnable;
}

/** The tools blocked by what the run remembers (not by where it is): the detail of a deadlock. */
function blockedByMemory(program: ToolRuleProgram, state: ToolRuleState): { tool: string; reason: string }[] {
  const blocked: { tool: string; reason: string }[] = [];
  for (const tool of program.tools) {
    const block = explainBlockedCall(program, state, tool);
    if (block && (block.rule === 'maxCount' || block.rule === 'parent' || block.rule === 'requiredBeforeExit')) {
      blocked.push({ tool, reason: block.reason });
    }
  }
  return blocked;
}

/** One way a call can end up: for a conditional tool, one per branch its output can pick. */
interface CallOutcome {
  branch: ToolRuleState['branch'];
  branchKey: string;
  step: RulePathStep;
}

/** The state right after an allowed call of `tool` (approved, when it needs approval). */
function admit(program: ToolRuleProgram, state: ToolRuleState, tool: string): ToolRuleState {
  const next = applyCall(program, state, tool);
  return next.awaitingApproval === null ? next : approveCall(program, next);
}

function callOutcomes(program: ToolRuleProgram, tool: string): CallOutcome[] {
  const rule = program.conditional.get(tool);
  if (rule === undefined) return [{ branch: null, branchKey: '', step: { tool } }];
  const chosen = (next: string, output: string): CallOutcome => ({
    branch: { status: 'chosen', tool, next },
    branchKey: `>${next}`,
    step: { tool, output },
  });
  const out: CallOutcome[] = [];
  const picked = new Set<string>();
  for (const entry of rule.cases) {
    if (picked.has(entry.then)) continue;
    picked.add(entry.then);
    out.push(chosen(entry.then, `matches ${JSON.stringify(entry.when)}`));
  }
  if (rule.defaultChild !== undefined) out.push(chosen(rule.defaultChild, 'matches no case'));
  else if (!rule.requireMatch) out.push({ branch: { status: 'open', tool }, branchKey: '~open', step: { tool, output: 'matches no case' } });
  return out;
}

/** What a state remembers (called tracked tools, counts), as a string; counts are kept in tool order. */
function memoKey(state: ToolRuleState): string {
  let counts = '';
  for (const tool in state.counts) counts += `${tool}:${state.counts[tool]},`;
  return `${state.called.join(',')}|${counts}`;
}

/** States are running (others are not explored), so last tool, branch and memory identify them. */
function stateKey(last: string | null, branchKey: string, memo: string): string {
  return `${last ?? ''}|${branchKey}|${memo}`;
}

function pathTo(seen: Map<string, { parent: string | null; step: RulePathStep | null }>, key: string): RulePathStep[] {
  const path: RulePathStep[] = [];
  for (let at: string | null = key; at !== null; ) {
    const entry = seen.get(at);
    if (!entry) break;
    if (entry.step) path.unshift(entry.step);
    at = entry.parent;
  }
  return path;
}

/** A path as people read it: `search → check (matches true) → publish`. */
export function formatRulePath(path: readonly RulePathStep[]): string {
  if (path.length === 0) return '(the start of the run)';
  return path.map((step) => (step.output ? `${step.tool} (${step.output})` : step.tool)).join(' → ');
}
