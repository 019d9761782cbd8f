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

/** How long a request of a tool made by `toolsFromOpenAPI` may take before the model is told it timed out. */
export const DEFAULT_OPENAPI_TIMEOUT_MS = 30_000;

/** Characters of an HTTP response body the model sees; the rest is cut off with a note. */
export const OPENAPI_MAX_RESPONSE_CHARS = 20_000;
/**
 * Bytes of an OpenAPI response body read at most (1 MiB): the body is read as
 * a stream and cut there, so a huge or endless response costs no more memory.
 */
export const OPENAPI_MAX_RESPONSE_BYTES = 1_048_576;

/** Times the `auto` speaker selector is asked again after naming nobody eligible, before the fallback. */
export const DEFAULT_SELECTOR_MAX_RETRIES = 2;

/** The name a group chat has as a participant of another chat, unless `name` says otherwise. */
export const DEFAULT_GROUP_CHAT_NAME = 'group_chat';
