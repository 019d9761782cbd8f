import { ModelError } from '@agentchart/core';
import { excerpt } from './excerpt.js';

/**
 * The errors a transport raises, made by the provider so that each names its
 * server and says what to do in its own terms.
 */
export interface TransportErrors {
  /** Where requests go, for messages and details (e.g. `Ollama at http://…`). */
  readonly where: string;
  readonly details: Record<string, unknown>;
  connection(error: unknown): ModelError;
  /** No response headers before the request's deadline. */
  timeout(timeoutMs: number): ModelError;
  /** An HTTP error answer; `truncated` when the body was longer than the cap. */
  http(status: number, body: string, truncated: boolean): ModelError;
  /** The stream broke off (connection closed, server error mid-stream). */
  interrupted(reason: string, cause?: unknown): ModelError;
}

/** A stream that went silent for `idleTimeoutMs` after it had begun. */
export function idleTimeoutError(errors: TransportErrors, idleTimeoutMs: number): ModelError {
  return new ModelError(
    'MODEL_TIMEOUT',
    `The reply from ${errors.where} stopped arriving: nothing came for ${idleTimeoutMs} ms after it had begun. ` +
      'The server has probably stalled; run again, or raise `idleTimeoutMs` if the model is just very slow.',
    { ...errors.details, idleTimeoutMs, phase: 'idle' },
  );
}

/** A line, a reply or an error body longer than its cap. */
export function tooLargeError(errors: TransportErrors, what: 'line' | 'reply', limit: number, option: string): ModelError {
  return new ModelError(
    'MODEL_RESPONSE_TOO_LARGE',
    `The ${what === 'line' ? 'stream sent a line' : 'reply'} from ${errors.where} longer than ${limit} bytes, so reading stopped. ` +
      `If the server is sound and the model really writes this much, raise \`${option}\`.`,
    { ...errors.details, limit, what },
  );
}

/** A stream line or body that is not what the protocol says (not JSON, not an SSE field). */
export function invalidResponseError(errors: TransportErrors, what: string, text: string): ModelError {
  return new ModelError(
    'MODEL_RESPONSE_INVALID',
    `${errors.where} sent ${what}: ${excerpt(text)}. Check that the URL points at the model server itself (not a proxy's login page or another service).`,
    { ...errors.details, excerpt: excerpt(text) },
  );
}
