/** Defaults that change behaviour, in one place. */

/** Model round trips a run may make unless `maxSteps` says otherwise. */
export const DEFAULT_MAX_STEPS = 10;

/** Iterations in a row with failing tool calls before the run makes one last, tool-less model call. */
export const DEFAULT_MAX_CONSECUTIVE_ERRORS = 3;

/** Whether the model sees the message of an error a tool threw (the full error always reaches `events$`). */
export const DEFAULT_DETAILED_ERRORS = true;

/** The version of persisted run snapshots this package writes. */
export const RUN_SNAPSHOT_VERSION = 2;

/** Attempts a reliable tool makes per run unless `maxToolInvocations` says otherwise. */
export const DEFAULT_MAX_TOOL_INVOCATIONS = 3;

/** Times the `auto` speaker selector is asked again after naming nobody eligible, before the fallback. */
export const DEFAULT_SELECTOR_MAX_RETRIES = 2;

/** The name a group chat has as a participant of another chat, unless `name` says otherwise. */
export const DEFAULT_GROUP_CHAT_NAME = 'group_chat';
