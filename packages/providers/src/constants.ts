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
