import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_RETRY_AFTER_MS, RETRY_BASE_DELAY_MS } from '../constants.js';
import { retryAfterMs } from './retryAfter.js';
import type { TransportErrors } from './transportErrors.js';
import type { TransportSettings } from './transportOptions.js';

/** One streamed POST. */
export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  /** The serialised body (see `serializeRequest`). */
  body: string;
  /** Aborts the request, including a streaming body (which closes the connection). */
  signal: AbortSignal;
}

const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504]);

/**
 * POSTs a request and resolves with its successful response, whose body is
 * still to be streamed. One deadline (`timeoutMs` from the call) covers every
 * attempt and every wait between them, so retries never stretch it. A failed
 * connection or a 408/409/429/5xx answer is retried up to `maxRetries` times
 * after `Retry-After` when the server sent one (capped), else 500 ms doubling
 * — never past the deadline. An error body is read up to `maxErrorBodyBytes`.
 * Every failure is the provider's ModelError; an abort rethrows the abort.
 *
 * @example
 * const response = await postStream({ url, headers, body, signal }, settings, errors);
 */
export async function postStream(request: StreamRequest, settings: TransportSettings, errors: TransportErrors): Promise<Response> {
  const deadline = Date.now() + settings.timeoutMs;
  for (let attempt = 0; ; attempt++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw errors.timeout(settings.timeoutMs);
    const timeout = AbortSignal.timeout(remaining);
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/x-ndjson, text/event-stream, application/json', ...request.headers },
        body: request.body,
        signal: AbortSignal.any([request.signal, timeout]),
      });
    } catch (error) {
      if (request.signal.aborted) throw error;
      if (timeout.aborted) throw errors.timeout(settings.timeoutMs);
      if (attempt < settings.maxRetries && (await waitToRetry(RETRY_BASE_DELAY_MS * 2 ** attempt, deadline, request.signal))) continue;
      throw errors.connection(error);
    }
    if (response.ok && response.body !== null) return response;
    const { text, truncated } = await readCapped(response, settings.maxErrorBodyBytes);
    if (RETRYABLE_STATUS.has(response.status) && attempt < settings.maxRetries) {
      const asked = retryAfterMs(response.headers);
      const delay = asked === undefined ? RETRY_BASE_DELAY_MS * 2 ** attempt : Math.min(asked, MAX_RETRY_AFTER_MS);
      if (await waitToRetry(delay, deadline, request.signal)) continue;
    }
    throw errors.http(response.status, text, truncated);
  }
}

/** Waits `delay` ms unless that would pass the deadline; false means do not retry. */
async function waitToRetry(delay: number, deadline: number, signal: AbortSignal): Promise<boolean> {
  if (Date.now() + delay >= deadline) return false;
  await sleep(delay, undefined, { signal });
  return true;
}

/**
 * At most `maxBytes` of a body as text; the rest is not read (the body is
 * cancelled, closing the connection).
 *
 * @example
 * const { text, truncated } = await readCapped(response, 65_536);
 */
export async function readCapped(response: Response, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  if (response.body === null) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      if (value.byteLength > room) {
        parts.push(value.subarray(0, room));
        size += room;
        truncated = true;
        break;
      }
      parts.push(value);
      size += value.byteLength;
    }
  } catch {
    // a body that breaks off mid-way: keep what arrived
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  return { text: new TextDecoder().decode(Buffer.concat(parts)), truncated };
}
