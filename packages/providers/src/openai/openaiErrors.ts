import { ModelError } from '@agentchart/core';
import { describeNetworkError, errorChainMessage, networkErrorCode } from '../shared/networkErrors.js';
import type { TransportErrors } from '../transport/transportErrors.js';

/** Where a request went, for error messages. */
export interface OpenAITarget {
  baseURL: string;
  model: string;
}

/** The most of a server's error message quoted in an error message. */
const MESSAGE_CHARS = 1000;

/**
 * The transport's errors for one OpenAI-compatible server and model: no
 * server → MODEL_CONNECTION_FAILED naming the URL; no answer in time →
 * MODEL_TIMEOUT; an unknown model → MODEL_NOT_FOUND; other HTTP errors →
 * MODEL_HTTP_ERROR with status and body; a broken stream →
 * MODEL_STREAM_INTERRUPTED.
 */
export function openaiTransportErrors(target: OpenAITarget): TransportErrors {
  return {
    where: `the server at ${target.baseURL}`,
    details: { baseURL: target.baseURL, model: target.model },
    connection: (error) => {
      const code = networkErrorCode(error);
      return new ModelError(
        'MODEL_CONNECTION_FAILED',
        `Cannot reach the OpenAI-compatible server at ${target.baseURL} (${describeNetworkError(code)}). ` +
          'Start the server (Ollama, `vllm serve`, `llama-server`, LM Studio) or fix `baseURL`.',
        { baseURL: target.baseURL, model: target.model, networkCode: code, cause: errorChainMessage(error) },
        { cause: error },
      );
    },
    timeout: (timeoutMs) =>
      new ModelError(
        'MODEL_TIMEOUT',
        `The server at ${target.baseURL} did not answer within ${timeoutMs} ms. A local model may still be loading: raise \`timeoutMs\`.`,
        { baseURL: target.baseURL, model: target.model, timeoutMs },
      ),
    http: (status, body, truncated) => httpError(target, status, body, truncated),
    interrupted: (reason, cause) => streamInterrupted(target, reason, cause),
  };
}

/** The stream ended (or broke off) before the server said the reply was finished. */
export function streamInterrupted(target: OpenAITarget, reason: string, cause?: unknown): ModelError {
  return new ModelError(
    'MODEL_STREAM_INTERRUPTED',
    `The reply from ${target.baseURL} (model "${target.model}") broke off before it was complete: ${reason}. ` +
      'The transcript up to this reply is intact; run again to retry.',
    { baseURL: target.baseURL, model: target.model, cause: reason },
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The message of an error object as compatible servers send it:
 * `{ error: { message } }` (OpenAI, vLLM, llama.cpp, Ollama /v1),
 * `{ error: "…" }`, `{ object: "error", message }` (older vLLM), `{ message }`.
 */
export function serverErrorMessage(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { error?: unknown; message?: unknown; object?: unknown };
  if (typeof record.error === 'string') return record.error;
  if (typeof record.error === 'object' && record.error !== null) {
    const message = (record.error as { message?: unknown }).message;
    return typeof message === 'string' ? message : JSON.stringify(record.error);
  }
  if (typeof record.message === 'string') return record.message;
  return undefined;
}

function httpError(target: OpenAITarget, status: number, text: string, truncated: boolean): ModelError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? (parsed as { error: unknown }).error : (parsed ?? text);
  const full = serverErrorMessage(parsed) ?? text.trim();
  const message = full.length > MESSAGE_CHARS ? `${full.slice(0, MESSAGE_CHARS)}… (cut)` : full;
  const details = { baseURL: target.baseURL, model: target.model, status, body, ...(truncated ? { truncated } : {}) };
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  if (status === 404 && (code === 'model_not_found' || /model/i.test(text))) {
    return new ModelError(
      'MODEL_NOT_FOUND',
      `The server at ${target.baseURL} does not have the model "${target.model}". ` +
        `Check the name against ${target.baseURL}/models; on Ollama's /v1 endpoint, download it with \`ollama pull ${target.model}\`.`,
      details,
    );
  }
  return new ModelError('MODEL_HTTP_ERROR', `The server at ${target.baseURL} answered HTTP ${status}: ${message || '(empty body)'}`, details);
}
