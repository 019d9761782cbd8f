import { AbortedError, ConfigurationError, ModelError } from '@agentchart/core';
import { describeNetworkError, errorChainMessage, networkErrorCode } from '../shared/networkErrors.js';

/** Which model a request went to, for error messages. */
export interface AiSdkTarget {
  provider: string;
  model: string;
}

/** An AI SDK error's `name` (the SDK marks its errors with names like `AI_APICallError`). */
const nameOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : undefined;

/**
 * Maps what an AI SDK provider throws to agentchart's errors: an abort →
 * `AbortedError`; an HTTP answer (`APICallError`) → `MODEL_NOT_FOUND` (404),
 * `MODEL_HTTP_ERROR` (others, with status and body); no connection →
 * `MODEL_CONNECTION_FAILED`; a reply that does not parse →
 * `MODEL_RESPONSE_INVALID`; a feature the provider lacks →
 * `ConfigurationError`; anything else → `MODEL_STREAM_INTERRUPTED`.
 */
export function toAiSdkModelError(target: AiSdkTarget, error: unknown): Error {
  const name = nameOf(error);
  const where = `${target.provider} model "${target.model}"`;
  const details = { provider: target.provider, model: target.model };
  if (name === 'AbortError' || name === 'ResponseAborted') return new AbortedError('The model request was aborted.');
  if (name === 'AI_APICallError') {
    const { statusCode, url, responseBody } = error as { statusCode?: number; url?: string; responseBody?: string };
    const message = (error as Error).message;
    if (statusCode === undefined) {
      const code = networkErrorCode(error);
      return new ModelError(
        'MODEL_CONNECTION_FAILED',
        `Cannot reach the ${target.provider} API at ${url ?? 'its URL'} (${describeNetworkError(code)}). Check the network, the provider's baseURL and the server.`,
        { ...details, url, networkCode: code, cause: errorChainMessage(error) },
        { cause: error },
      );
    }
    if (statusCode === 404) {
      return new ModelError(
        'MODEL_NOT_FOUND',
        `The ${target.provider} API at ${url ?? 'its URL'} answered 404 for the ${where}: check the model id. ${message}`,
        { ...details, url, status: statusCode, body: responseBody },
        { cause: error },
      );
    }
    const hint =
      statusCode === 401 || statusCode === 403
        ? ' Check the API key the provider was created with.'
        : statusCode === 429
          ? ' The provider is rate-limiting: retry later.'
          : '';
    return new ModelError(
      'MODEL_HTTP_ERROR',
      `The ${target.provider} API answered HTTP ${statusCode} for the ${where}: ${message}.${hint}`,
      { ...details, url, status: statusCode, body: responseBody },
      { cause: error },
    );
  }
  if (name === 'AI_JSONParseError' || name === 'AI_TypeValidationError' || name === 'AI_InvalidResponseDataError') {
    return new ModelError('MODEL_RESPONSE_INVALID', `The ${where} sent a reply that does not parse: ${(error as Error).message}`, details, {
      cause: error,
    });
  }
  if (name === 'AI_UnsupportedFunctionalityError' || name === 'AI_InvalidPromptError' || name === 'AI_LoadAPIKeyError') {
    return new ConfigurationError(`The ${where} cannot take this request: ${(error as Error).message}`, { ...details, aiSdkError: name });
  }
  const code = networkErrorCode(error);
  if (code !== undefined) {
    return new ModelError(
      'MODEL_CONNECTION_FAILED',
      `Cannot reach the ${target.provider} API (${describeNetworkError(code)}). Check the network and the provider's baseURL.`,
      { ...details, networkCode: code, cause: errorChainMessage(error) },
      { cause: error },
    );
  }
  return new ModelError(
    'MODEL_STREAM_INTERRUPTED',
    `The reply of the ${where} broke off: ${errorChainMessage(error)}. Run again to retry.`,
    details,
    {
      cause: error,
    },
  );
}

/** An `error` part in the middle of a stream: the provider's error, mapped. */
export function streamPartError(target: AiSdkTarget, error: unknown): Error {
  if (error instanceof Error) return toAiSdkModelError(target, error);
  const text = typeof error === 'string' ? error : JSON.stringify(error);
  return new ModelError('MODEL_STREAM_INTERRUPTED', `The ${target.provider} model "${target.model}" reported an error in its reply: ${text}`, {
    provider: target.provider,
    model: target.model,
    error,
  });
}
