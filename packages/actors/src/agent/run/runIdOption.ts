/** An internal run option: the run id a run must take (a run whose handle was returned before its actor existed). */
export const RUN_ID_OPTION = Symbol('agentchart.runId');

/** The run id set with `RUN_ID_OPTION`, if any. */
export function presetRunId(options: object): string | undefined {
  const value = (options as { [RUN_ID_OPTION]?: unknown })[RUN_ID_OPTION];
  return typeof value === 'string' ? value : undefined;
}
