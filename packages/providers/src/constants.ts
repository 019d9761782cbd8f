/** Defaults that change the providers' behaviour, in one place. */

/** Where `ollama()` looks for a server unless `host` or `OLLAMA_HOST` says otherwise. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

/**
 * How long a request may wait for the server's first response (headers), in
 * ms. Local servers load a model on its first request, which can take minutes
 * for a large model on a slow disk; the streamed reply itself is not timed.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;

/**
 * Retries after a failed connection or a retryable HTTP status (408, 409,
 * 429, 5xx) before any output arrived. One retry rides out a server that is
 * restarting; more only delays the error when no server runs at all.
 */
export const DEFAULT_MAX_RETRIES = 1;

/** The wait before the first retry, in ms; doubled for each further retry. */
export const RETRY_BASE_DELAY_MS = 500;

/** How long `probeOllama` waits for an answer before saying there is no server, in ms. */
export const DEFAULT_PROBE_TIMEOUT_MS = 300;

/** The API key sent to OpenAI-compatible servers that need none (most local ones). */
export const PLACEHOLDER_API_KEY = 'sk-no-key-required';

/**
 * The longest stream line (an NDJSON object, an SSE event) a provider reads,
 * in bytes. A model's whole reply seldom comes near it; a server that never
 * ends its line does, and is stopped with MODEL_RESPONSE_TOO_LARGE.
 */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

/** The most a provider reads of one streamed reply, in bytes. */
export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** The most a provider reads of an HTTP error body, in bytes; the rest is dropped (and said so). */
export const DEFAULT_MAX_ERROR_BODY_BYTES = 64 * 1024;

/**
 * The longest wait between two pieces of a streamed reply once it has begun,
 * in ms. Separate from `timeoutMs` (the wait for the first answer): a model
 * is loaded by then, and a local server that stays silent this long mid-reply
 * has stalled.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** The longest `Retry-After` honoured on a 429/503, in ms (never beyond the request's deadline). */
export const MAX_RETRY_AFTER_MS = 60_000;

/** How much of an invalid line or body an error message quotes, in characters. */
export const EXCERPT_CHARS = 200;
