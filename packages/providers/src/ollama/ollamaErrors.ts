import { ModelError } from '@agentchart/core';
import { describeNetworkError, errorChainMessage, networkErrorCode } from '../shared/networkErrors.js';
import type { TransportErrors } from '../transport/transportErrors.js';

/** Where a request went, for error messages. */
export interface OllamaTarget {
  host: string;
  model: string;
}

/** The server could not be reached: names the host and says how to start Ollama. */
export function ollamaConnectionError(target: OllamaTarget, error: unknown): ModelError {
  const code = networkErrorCode(error);
  return new ModelError(
    'MODEL_CONNECTION_FAILED',
    `Cannot reach Ollama at ${target.host} (${describeNetworkError(code)}). ` +
      'Start Ollama (`ollama serve`, or open the Ollama app), or point `host` / OLLAMA_HOST at the machine where it runs.',
    { host: target.host, model: target.model, networkCode: code, cause: errorChainMessage(error) },
    { cause: error },
  );
}

/** The transport's errors for one Ollama server and model. */
export function ollamaTransportErrors(target: OllamaTarget): TransportErrors {
  return {
    where: `Ollama at ${target.host}`,
    details: { host: target.host, model: target.model },
    connection: (error) => ollamaConnectionError(target, error),
    timeout: (timeoutMs) => ollamaTimeoutError(target, timeoutMs),
    http: (status, body, truncated) => ollamaHttpError(target, status, body, truncated),
    interrupted: (reason, cause) => ollamaStreamError(target, cause ?? new Error(reason)),
  };
}

/** The most of a server's error message quoted in an error message. */
const MESSAGE_CHARS = 1000;

/** An HTTP error answer: an unknown model says to pull it; others keep status and body (capped: `truncated`). */
export function ollamaHttpError(target: OllamaTarget, status: number, body: string, truncated = false): ModelError {
  const fullMessage = serverErrorMessage(body);
  const serverMessage = fullMessage.length > MESSAGE_CHARS ? `${fullMessage.slice(0, MESSAGE_CHARS)}… (cut)` : fullMessage;
  if (status === 404 && /not found|pull/i.test(serverMessage)) {
    return new ModelError(
      'MODEL_NOT_FOUND',
      `Ollama at ${target.host} does not have the model "${target.model}". ` +
        `Download it with \`ollama pull ${target.model}\` (or choose one that \`ollama list\` shows).`,
      { host: target.host, model: target.model, status, body },
    );
  }
  return new ModelError(
    'MODEL_HTTP_ERROR',
    `Ollama at ${target.host} answered HTTP ${status}: ${serverMessage || '(empty body)'}`,
    truncated ? { host: target.host, model: target.model, status, body, truncated } : { host: target.host, model: target.model, status, body },
  );
}

/** No response headers within the timeout. */
export function ollamaTimeoutError(target: OllamaTarget, timeoutMs: number): ModelError {
  return new ModelError(
    'MODEL_TIMEOUT',
    `Ollama at ${target.host} did not answer within ${timeoutMs} ms. A large model may still be loading: ` +
      'raise `timeoutMs`, or load it beforehand with `ollama run <model>`.',
    { host: target.host, model: target.model, timeoutMs },
  );
}

/** The stream broke off, or the server reported an error in the middle of it. */
export function ollamaStreamError(target: OllamaTarget, error: unknown): ModelError {
  return new ModelError(
    'MODEL_STREAM_INTERRUPTED',
    `The reply from Ollama at ${target.host} (model "${target.model}") broke off before it was complete: ${errorChainMessage(error)}. ` +
      'The transcript up to this reply is intact; run again to retry.',
    { host: target.host, model: target.model, cause: errorChainMessage(error) },
    { cause: error },
  );
}

function serverErrorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
  } catch {
    // not JSON: the body is the message
  }
  return body.trim();
}
