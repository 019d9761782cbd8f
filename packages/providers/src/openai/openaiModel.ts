import { type ChatModel, type ChatRequest, ConfigurationError, type ModelEvent } from '@agentchart/core';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS, PLACEHOLDER_API_KEY } from '../constants.js';
import { registerProviderSecrets } from '../shared/registerProviderSecrets.js';
import { modelEventStream } from '../shared/modelEventStream.js';
import { requireModelName } from '../shared/requireModelName.js';
import { resolveToolOffer } from '../shared/toolOffer.js';
import { type OpenAITarget, toOpenAIModelError } from './openaiErrors.js';
import { openaiReplyEvents } from './openaiReplyEvents.js';
import { closeObjects, toOpenAIMessages, toOpenAITools } from './toOpenAIMessages.js';

/** What `openai()` takes. */
export interface OpenAIModelOptions {
  /** The model as the server names it, e.g. `gpt-4o-mini`, `Qwen/Qwen3-8B`, `qwen3:8b`. */
  model: string;
  /**
   * The server's OpenAI-compatible base URL, e.g. `http://127.0.0.1:8000/v1`
   * (vLLM), `http://127.0.0.1:8080/v1` (llama.cpp), `http://127.0.0.1:1234/v1`
   * (LM Studio), `http://127.0.0.1:11434/v1` (Ollama). Default: `OPENAI_BASE_URL`,
   * else OpenAI.
   */
  baseURL?: string;
  /** Default: `OPENAI_API_KEY`; a placeholder when `baseURL` names a server that needs none. */
  apiKey?: string;
  /** Wait for the server's first answer at most this long, in ms (default 300 000: local models load slowly). */
  timeoutMs?: number;
  /** Retries after a failed connection or a 408/409/429/5xx answer (default 1). */
  maxRetries?: number;
  /** Ask for token usage at the end of the stream (`stream_options.include_usage`; default true). */
  includeUsage?: boolean;
  /** Extra body fields sent with every request: `temperature`, `max_tokens`, `seed`, server-specific ones. */
  body?: Record<string, unknown>;
  /** Extra HTTP headers. */
  headers?: Record<string, string>;
}

/**
 * A ChatModel on any OpenAI-compatible chat-completions server (OpenAI, vLLM,
 * llama.cpp's server, LM Studio, Ollama's `/v1`), through the npm `openai`
 * client, streamed.
 *
 * @example
 * const model = openai({ model: 'Qwen/Qwen3-8B', baseURL: 'http://127.0.0.1:8000/v1' });
 * const agent = createAgent({ name: 'assistant', model, tools: [getWeather] });
 */
export function openai(options: OpenAIModelOptions): ChatModel {
  requireModelName('openai', options.model);
  const baseURL = options.baseURL ?? envValue('OPENAI_BASE_URL');
  if (baseURL !== undefined && !isHttpUrl(baseURL)) {
    throw new ConfigurationError(
      `openai() got the baseURL ${JSON.stringify(baseURL)}, which is not an http(s) URL. Give the server's full base URL, e.g. 'http://127.0.0.1:8000/v1'.`,
      { baseURL },
    );
  }
  const apiKey = options.apiKey ?? envValue('OPENAI_API_KEY') ?? (baseURL ? PLACEHOLDER_API_KEY : undefined);
  if (apiKey === undefined) {
    throw new ConfigurationError(
      'openai() needs an API key for OpenAI: pass `apiKey` or set OPENAI_API_KEY. For a local server, pass its `baseURL` (no key needed).',
    );
  }
  registerProviderSecrets(apiKey, options.headers);
  const client = new OpenAI({
    apiKey,
    baseURL,
    timeout: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    defaultHeaders: options.headers,
  });
  const target: OpenAITarget = { baseURL: client.baseURL, model: options.model };
  return {
    provider: 'openai',
    modelName: options.model,
    stream(request) {
      return modelEventStream(
        request.signal,
        (signal) => streamReply(client, options, target, request, signal),
        (error) => toOpenAIModelError(target, error),
      );
    },
  };
}

const isHttpUrl = (text: string): boolean => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/** An environment variable, with empty meaning unset. */
const envValue = (name: string): string | undefined => process.env[name]?.trim() || undefined;

async function* streamReply(
  client: OpenAI,
  options: OpenAIModelOptions,
  target: OpenAITarget,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const chunks = await client.chat.completions.create(buildCompletionRequest(options, request), { signal });
  yield* openaiReplyEvents(chunks, request.messages, target, signal);
}

/** The chat-completions body for one request. */
export function buildCompletionRequest(options: OpenAIModelOptions, request: ChatRequest): ChatCompletionCreateParamsStreaming {
  const offer = resolveToolOffer(request);
  const body: ChatCompletionCreateParamsStreaming = {
    ...options.body,
    model: options.model,
    messages: toOpenAIMessages(request.messages),
    stream: true,
  };
  if (options.includeUsage ?? true) body.stream_options = { include_usage: true };
  if (offer.tools.length > 0) {
    body.tools = toOpenAITools(offer.tools);
    body.tool_choice = offer.namedTool
      ? { type: 'function', function: { name: offer.namedTool } }
      : offer.mustCall
        ? 'required'
        : 'auto';
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.responseFormat) {
    const { name, schema } = request.responseFormat;
    body.response_format = { type: 'json_schema', json_schema: { name, schema: closeObjects(schema), strict: true } };
  }
  return body;
}
