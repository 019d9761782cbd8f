import { type CompiledToolRules, type CompileToolRulesOptions, compileToolRules } from '@agentchart/core';

/** Compiled rule sets by their inputs (the rules and the tool names, as JSON). */
const compiled = new Map<string, CompiledToolRules>();

/** Enough for every distinct rule set a process compiles; the oldest is dropped past it. */
const MAX_SHARED_RULE_SETS = 256;

/**
 * `compileToolRules(rules, toolNames, options)`, shared by every agent and chat that
 * compiles the same rules for the same tools: compiling (the analysis of
 * every reachable state, the machine) costs far more than a run, and the
 * result never changes. Rules that are not plain data are compiled for the
 * caller alone (and a rule set that does not compile throws every time).
 *
 * @example
 * const a = sharedToolRules([rules.init('search')], ['search', 'read']);
 * a === sharedToolRules([rules.init('search')], ['search', 'read']); // true
 */
export function sharedToolRules(rules: readonly unknown[], toolNames: readonly string[], options: CompileToolRulesOptions = {}): CompiledToolRules {
  const key = ruleKey(rules, toolNames, options);
  if (key === undefined) return compileToolRules(rules, toolNames, options);
  let result = compiled.get(key);
  if (result === undefined) {
    result = compileToolRules(rules, toolNames, options);
    if (compiled.size >= MAX_SHARED_RULE_SETS) compiled.delete(compiled.keys().next().value as string);
    compiled.set(key, result);
  }
  return result;
}

/** The inputs as JSON, or `undefined` when they hold anything JSON would not write back as it is. */
function ruleKey(rules: readonly unknown[], toolNames: readonly string[], options: CompileToolRulesOptions): string | undefined {
  try {
    return JSON.stringify([rules, toolNames, options.unnamedTools ?? null], (_key, value: unknown) => {
      if (value === null || typeof value === 'string' || typeof value === 'boolean' || Array.isArray(value)) return value;
      if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return value;
      if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return value;
      throw new TypeError('not plain rules');
    });
  } catch {
    return undefined;
  }
}
