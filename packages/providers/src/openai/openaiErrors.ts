import { AbortedError, ModelError } from '@agentchart/core';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { describeNetworkError, errorChainMessage, networkErrorCode } from '../shared/networkErrors.js';

/** Where a request went, for error messages. */
export interface OpenAITarget {
  baseURL: string;
  model: string;
}

/**
 * Maps what the `openai` client throws to a ModelError that says what to do:
 * no server → MODEL_CONNECTION_FAILED naming the URL; an unknown model →
 * MODEL_NOT_FOUND; other HTTP errors → MODEL_HTTP_ERROR with status and
 * body; a broken stream → MODEL_STREAM_INTERRUPTED.
 */
export function toOpenAIModelError(target: OpenAITarget, error: unknown): Error {
  if (error instanceof APIUserAbortError) return new AbortedError('The model request was aborted.');
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelError(
      'MODEL_TIMEOUT',
      `The server at ${target.baseURL} did not answer in time. A local model may still be loading: raise \`timeoutMs\`.`,
      { baseURL: target.baseURL, model: target.model },
      { cause: error },
    );
  }
  if (error instanceof APIConnectionError) {
    const code = networkErrorCode(error);
    return new ModelError(
      'MODEL_CONNECTION_FAILED',
      `Cannot reach the OpenAI-compatible server at ${target.baseURL} (${describeNetworkError(code)}). ` +
        'Start the server (Ollama, `vllm serve`, `llama-server`, LM Studio) or fix `baseURL`.',
      { baseURL: target.baseURL, model: target.model, networkCode: code, cause: errorChainMessage(error) },
      { cause: error },
    );
  }
  if (error instanceof APIError && error.status !== undefined) return httpError(target, error);
  if (error instanceof APIError) {
    return new ModelError(
      'MODEL_STREAM_INTERRUPTED',
      `The server at ${target.baseURL} reported an error in the middle of the reply: ${error.message}`,
      { baseURL: target.baseURL, model: target.model, body: error.error },
      { cause: error },
    );
  }
  if (error instanceof SyntaxError) {
    return new ModelError(
      'MODEL_RESPONSE_INVALID',
      `The server at ${target.baseURL} sent a stream event that is not JSON: ${error.message}`,
      { baseURL: target.baseURL, model: target.model },
      { cause: error },
    );
  }
  return streamInterrupted(target, errorChainMessage(error), error);
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

function httpError(target: OpenAITarget, error: APIError): ModelError {
  const status = error.status as number;
  const body = error.error;
  const text = JSON.stringify(body ?? error.message);
  if (status === 404 && (error.code === 'model_not_found' || /model/i.test(text))) {
    return new ModelError(
      'MODEL_NOT_FOUND',
      `The server at ${target.baseURL} does not have the model "${target.model}". ` +
        `Check the name against ${target.baseURL}/models; on Ollama's /v1 endpoint, download it with \`ollama pull ${target.model}\`.`,
      { baseURL: target.baseURL, model: target.model, status, body },
      { cause: error },
    );
  }
  return new ModelError(
    'MODEL_HTTP_ERROR',
    `The server at ${target.baseURL} answered HTTP ${status}: ${error.message}`,
    { baseURL: target.baseURL, model: target.model, status, body },
    { cause: error },
  );
}
