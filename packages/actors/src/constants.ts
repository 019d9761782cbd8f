/** Defaults that change behaviour, in one place. */

/** Model round trips a run may make unless `maxSteps` says otherwise. */
export const DEFAULT_MAX_STEPS = 10;

/** Attempts a reliable tool makes per run unless `maxToolInvocations` says otherwise. */
export const DEFAULT_MAX_TOOL_INVOCATIONS = 3;
