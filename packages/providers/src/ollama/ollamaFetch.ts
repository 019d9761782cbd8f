import { setTimeout as sleep } from 'node:timers/promises';
import { RETRY_BASE_DELAY_MS } from '../constants.js';
import { type OllamaTarget, ollamaConnectionError, ollamaHttpError, ollamaTimeoutError } from './ollamaErrors.js';

/** What the fetch of one Ollama request needs to know. */
export interface OllamaFetchSettings extends OllamaTarget {
  /** Aborts the request, including a streaming body (which closes the connection). */
  signal: AbortSignal;
  timeoutMs: number;
  maxRetries: number;
}

const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504]);

/**
 * The fetch given to the `ollama` client for one request. The client has no
 * per-request signal, so this fetch carries it; it also times the wait for
 * response headers, retries failed connections and retryable statuses, and
 * turns every failure into a ModelError that says what to do — the client
 * only ever sees successful responses.
 */
export function createOllamaFetch(settings: OllamaFetchSettings): typeof fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), settings.timeoutMs);
      const signals = [settings.signal, timeout.signal, ...(init?.signal ? [init.signal] : [])];
      let response: Response;
      try {
        response = await fetch(input, { ...init, signal: AbortSignal.any(signals) });
      } catch (error) {
        if (settings.signal.aborted) throw error;
        if (timeout.signal.aborted) throw ollamaTimeoutError(settings, settings.timeoutMs);
        if (attempt < settings.maxRetries) {
          await backoff(attempt, settings.signal);
          continue;
        }
        throw ollamaConnectionError(settings, error);
      } finally {
        clearTimeout(timer);
      }
      if (response.ok) return response;
      const body = await response.text().catch(() => '');
      if (RETRYABLE_STATUS.has(response.status) && attempt < settings.maxRetries) {
        await backoff(attempt, settings.signal);
        continue;
      }
      throw ollamaHttpError(settings, response.status, body);
    }
  };
}

function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  return sleep(RETRY_BASE_DELAY_MS * 2 ** attempt, undefined, { signal });
}
