/** Defaults of the tools made by this package, in one place. */

/** How long a request of a tool made by `toolsFromOpenAPI` may take before the model is told it timed out. */
export const DEFAULT_OPENAPI_TIMEOUT_MS = 30_000;

/** Characters of an HTTP response body the model sees; the rest is cut off with a note. */
export const OPENAPI_MAX_RESPONSE_CHARS = 20_000;
/**
 * Bytes of an OpenAPI response body read at most (1 MiB): the body is read as
 * a stream and cut there, so a huge or endless response costs no more memory.
 */
export const OPENAPI_MAX_RESPONSE_BYTES = 1_048_576;
