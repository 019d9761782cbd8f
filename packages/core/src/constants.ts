/** Defaults of the core package that change behaviour, in one place. */

/**
 * How many distinct rule states the static analysis of `compileToolRules`
 * explores before it stops and reports `TOOL_RULES_ANALYSIS_INCOMPLETE`.
 * Raise it per call with `compileToolRules(rules, tools, { maxAnalysisStates })`.
 */
export const DEFAULT_MAX_ANALYSIS_STATES = 20_000;
