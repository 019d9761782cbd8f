import { DEFAULT_MAX_ANALYSIS_STATES } from '../constants.js';
import { type ToolRuleAnalysis, type ToolRuleWarning, analyzeToolRules, formatRulePath } from './analyzeToolRules.js';
import { parseToolRules } from './parseToolRules.js';
import { type ToolRuleProgram, buildToolRuleProgram } from './toolRuleProgram.js';
import { ToolRulesError } from './toolRulesError.js';
import { type ToolRulesMachine, createToolRulesMachine, toolRulesMachineConfig } from './toolRulesMachine.js';
import type { UnnamedToolPolicy } from './unnamedTools.js';

/** Options of `compileToolRules`. */
export interface CompileToolRulesOptions {
  /** Rule states the static analysis may explore (default `DEFAULT_MAX_ANALYSIS_STATES`). */
  maxAnalysisStates?: number;
  /**
   * Tools the rules were not compiled with (added during a run): allowed only
   * where the rules leave the choice free (`'where-free'`, the default), or
   * never (`'refuse'`). See docs/tool-rules.md.
   */
  unnamedTools?: UnnamedToolPolicy;
}

/** A rule set compiled for one set of tools. */
export interface CompiledToolRules {
  /** The rules in agentchart's form. */
  readonly rules: ToolRuleProgram['rules'];
  readonly toolNames: readonly string[];
  /** The tables the rule engine reads (`allowedTools(program, state)`, ...). */
  readonly program: ToolRuleProgram;
  /**
   * The XState machine generated from `program`, its guards and actions the
   * engine functions the agent's gate decides with (the program is the
   * authority; a test proves both agree in every reachable state).
   */
  readonly machine: ToolRulesMachine;
  /** Findings that do not stop compilation (never-runnable tools, ...). */
  readonly warnings: readonly ToolRuleWarning[];
  /** What happens to calls of tools the rules were not compiled with. */
  readonly unnamedTools: UnnamedToolPolicy;
  readonly analysis: Omit<ToolRuleAnalysis, 'warnings' | 'deadlock'>;
  /** The machine's JSON config, for the Stately editor and inspector. */
  machineConfig(): ReturnType<typeof toolRulesMachineConfig>;
}

/**
 * Validates rules (agentchart's form or Letta's JSON), checks them against the
 * agent's tools, analyses every reachable state and compiles them into an
 * XState machine. No I/O.
 *
 * Throws `ToolRulesError` for invalid rules, unknown tools, contradictions and
 * deadlocks (with the shortest call path that reaches one); returns warnings
 * for tools that can never run and unreachable terminal tools.
 *
 * @example
 * const compiled = compileToolRules(
 *   [rules.init('search'), rules.child('search', ['read', 'answer']), rules.terminal('answer')],
 *   ['search', 'read', 'answer'],
 * );
 * allowedTools(compiled.program, initialToolRuleState()); // ['search']
 * createActor(compiled.machine).start().getSnapshot().can({ type: 'call.read' }); // false
 */
export function compileToolRules(input: readonly unknown[], toolNames: readonly string[], options: CompileToolRulesOptions = {}): CompiledToolRules {
  const unnamedTools = options.unnamedTools ?? 'where-free';
  if (unnamedTools !== 'where-free' && unnamedTools !== 'refuse') {
    throw new ToolRulesError('TOOL_RULES_INVALID', `unnamedTools must be 'where-free' or 'refuse'; got ${JSON.stringify(unnamedTools)}.`, {
      unnamedTools,
    });
  }
  const rules = parseToolRules(input);
  const program = buildToolRuleProgram(rules, toolNames);
  const { warnings, deadlock, ...analysis } = analyzeToolRules(program, options.maxAnalysisStates ?? DEFAULT_MAX_ANALYSIS_STATES);
  if (deadlock !== null) {
    const path = formatRulePath(deadlock.path);
    throw new ToolRulesError(
      'TOOL_RULES_DEADLOCK',
      `These tool rules can deadlock: after ${path} no tool may be called and the run may not end (${deadlock.reason}` +
        `${deadlock.blocked.length > 0 ? `; ${deadlock.blocked.map((entry) => entry.reason).join('; ')}` : ''}). ` +
        'Loosen a child, parent, max-count or required-before-exit rule so that some tool stays allowed there.',
      { path: deadlock.path, formattedPath: path, state: deadlock.state, reason: deadlock.reason, blocked: deadlock.blocked },
    );
  }
  const machine = createToolRulesMachine(program);
  return {
    rules,
    toolNames: program.tools,
    program,
    machine,
    warnings,
    unnamedTools,
    analysis,
    machineConfig: () => toolRulesMachineConfig(program),
  };
}
