import { type ChatModel, type ChatRequest, ConfigurationError, type Message, type ModelEvent } from '@agentchart/core';
import { ForcedCallMissed, forcedCallReminder, forcedCallRetried } from '../ollama/toolCallFormat.js';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { PLACEHOLDER_API_KEY } from '../constants.js';
import { registerProviderSecrets } from '../shared/registerProviderSecrets.js';
import { modelEventStream } from '../shared/modelEventStream.js';
import { requireModelName } from '../shared/requireModelName.js';
import { type ToolOffer, resolveToolOffer } from '../shared/toolOffer.js';
import { boundedLines } from '../transport/boundedLines.js';
import { postStream } from '../transport/postStream.js';
import { serializeRequest } from '../transport/serializeRequest.js';
import { sseEvents } from '../transport/sseEvents.js';
import { type TransportOptions, type TransportSettings, resolveTransport } from '../transport/transportOptions.js';
import { openaiChunks, strayErrorLine } from './openaiChunks.js';
import { type OpenAITarget, openaiTransportErrors } from './openaiErrors.js';
import { openaiReplyEvents } from './openaiReplyEvents.js';
import { type OpenAICompat, type ServerProfile, detectCompat, isCompat, serverProfile } from './serverProfile.js';
import { closeObjects, toOpenAIMessages, toOpenAITools } from './toOpenAIMessages.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** What `openai()` takes. */
export interface OpenAIModelOptions extends TransportOptions {
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
  /**
   * Which server this is, deciding how tool choice is sent and reasoning
   * sent back (see docs/providers.md). Default: detected once from the
   * server's `/models` list when `baseURL` is given, else `openai`.
   */
  compat?: OpenAICompat;
  /** Ask for token usage at the end of the stream (`stream_options.include_usage`; default true). */
  includeUsage?: boolean;
  /**
   * Read a reply whose text is a tool call written out (`{"name": …,
   * "arguments": …}`, `<tool_call>…</tool_call>`, fenced JSON) as that call
   * when tools were offered (default true).
   */
  textualToolCalls?: boolean;
  /** Extra body fields sent with every request: `temperature`, `max_tokens`, `seed`, server-specific ones. */
  body?: Record<string, unknown>;
  /** Extra HTTP headers. */
  headers?: Record<string, string>;
}

/**
 * A ChatModel on any OpenAI-compatible chat-completions server (OpenAI, vLLM,
 * llama.cpp's server, LM Studio, Ollama's `/v1`), streamed over SSE through
 * agentchart's own bounded transport (see docs/providers.md).
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
  if (options.compat !== undefined && !isCompat(options.compat)) {
    throw new ConfigurationError(
      `openai({ compat }) must be one of 'openai', 'vllm', 'llama.cpp' (also LM Studio), 'ollama'; got ${JSON.stringify(options.compat)}.`,
      { compat: options.compat },
    );
  }
  const apiKey = options.apiKey ?? envValue('OPENAI_API_KEY') ?? (baseURL ? PLACEHOLDER_API_KEY : undefined);
  if (apiKey === undefined) {
    throw new ConfigurationError(
      'openai() needs an API key for OpenAI: pass `apiKey` or set OPENAI_API_KEY. For a local server, pass its `baseURL` (no key needed).',
    );
  }
  registerProviderSecrets(apiKey, options.headers);
  const transport = resolveTransport('openai', options);
  const url = (baseURL ?? OPENAI_BASE_URL).replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${apiKey}`, ...options.headers };
  const target: OpenAITarget = { baseURL: url, model: options.model };
  // Detected once per provider; a server that did not answer at all is asked again on the next request.
  let profile: Promise<ServerProfile> | undefined;
  const profileOnce = (): Promise<ServerProfile> => {
    if (options.compat !== undefined || baseURL === undefined) return Promise.resolve(serverProfile(options.compat ?? 'openai'));
    profile ??= detectCompat(url, headers).then((compat) => {
      if (compat === undefined) profile = undefined;
      return serverProfile(compat ?? 'openai');
    });
    return profile;
  };
  return {
    provider: 'openai',
    modelName: options.model,
    stream(request) {
      return modelEventStream(
        request.signal,
        (signal) => streamReply(options, transport, target, headers, profileOnce, request, signal),
        (error) => openaiTransportErrors(target).interrupted(String((error as Error)?.message ?? error), error),
      );
    },
  };
}

const isHttpUrl = (text: string): boolean => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol);

/** An environment variable, with empty meaning unset. */
const envValue = (name: string): string | undefined => process.env[name]?.trim() || undefined;

async function* streamReply(
  options: OpenAIModelOptions,
  transport: TransportSettings,
  target: OpenAITarget,
  headers: Record<string, string>,
  profileOnce: () => Promise<ServerProfile>,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const errors = openaiTransportErrors(target);
  const offer = resolveToolOffer(request);
  const profile = await profileOnce();
  let followUp: Message[] = [];
  // A forced reply without a call (a server that does not constrain decoding): told what was expected, asked once more.
  for (let attempt = 0; ; attempt++) {
    const messages = [...request.messages, ...followUp];
    const body = serializeRequest(() => buildCompletionRequest(options, { ...request, messages }, profile, offer), errors.where);
    const response = await postStream({ url: `${target.baseURL}/chat/completions`, headers, body, signal }, transport, errors);
    const lines = boundedLines(response.body as ReadableStream<Uint8Array>, { ...transport, firstChunkTimeoutMs: transport.timeoutMs }, errors);
    const chunks = openaiChunks(sseEvents(lines, transport.maxLineBytes, errors, strayErrorLine(errors)), errors);
    try {
      yield* openaiReplyEvents(chunks, request.messages, target, signal, {
        offer,
        textualToolCalls: options.textualToolCalls ?? true,
        reaskForcedCall: attempt === 0,
      });
      return;
    } catch (error) {
      if (!(error instanceof ForcedCallMissed)) throw error;
      yield forcedCallRetried(offer.tools);
      followUp = [
        ...(error.text.trim() === '' ? [] : [{ role: 'assistant' as const, content: error.text }]),
        forcedCallReminder(offer.tools, error.text),
      ];
    }
  }
}

/** The chat-completions body for one request, as `profile`'s server wants it. */
export function buildCompletionRequest(
  options: OpenAIModelOptions,
  request: ChatRequest,
  profile: ServerProfile = serverProfile(options.compat ?? 'openai'),
  offer: ToolOffer = resolveToolOffer(request),
): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    ...options.body,
    model: options.model,
    messages: toOpenAIMessages(request.messages, profile.reasoningField),
    stream: true,
  };
  if (options.includeUsage ?? true) body.stream_options = { include_usage: true };
  if (offer.tools.length > 0) {
    body.tools = toOpenAITools(offer.tools);
    body.tool_choice =
      offer.namedTool && !profile.namedChoiceAsRequired
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
