/** Defaults of the core package that change behaviour, in one place. */

/**
 * How many distinct rule states the deadlock search of `compileToolRules`
 * explores before it stops and reports `TOOL_RULES_ANALYSIS_INCOMPLETE`.
 * Small and medium rule sets are explored completely well below it; large
 * ones with much memory (many counts and parents) have more states than can
 * be explored at agent creation. Raise it per call with
 * `compileToolRules(rules, tools, { maxAnalysisStates })`, e.g. in a CI check.
 */
export const DEFAULT_MAX_ANALYSIS_STATES = 1_000;

/**
 * How long a name may be where it leaves the process (span names and
 * attributes, traces, the live view, error messages). Names the model wrote
 * (a tool it made up, a call id) are cut there; twice the longest valid tool
 * name (`TOOL_NAME_PATTERN`: 64), so no tool a provider accepts is cut.
 */
export const MAX_EXPORTED_NAME_LENGTH = 128;
