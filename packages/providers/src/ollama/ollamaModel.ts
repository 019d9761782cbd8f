import type { ChatModel, ChatRequest, JsonSchema, ModelEvent } from '@agentchart/core';
import { type ChatRequest as OllamaChatRequest, Ollama, type Options as OllamaOptions } from 'ollama';
import { DEFAULT_MAX_RETRIES, DEFAULT_REQUEST_TIMEOUT_MS } from '../constants.js';
import { modelEventStream } from '../shared/modelEventStream.js';
import { registerProviderSecrets } from '../shared/registerProviderSecrets.js';
import { requireModelName } from '../shared/requireModelName.js';
import { type ToolOffer, resolveToolOffer } from '../shared/toolOffer.js';
import { createOllamaFetch } from './ollamaFetch.js';
import { type OllamaTarget, ollamaStreamError } from './ollamaErrors.js';
import { resolveOllamaHost } from './ollamaHost.js';
import { ollamaReplyEvents } from './ollamaReplyEvents.js';
import { toOllamaMessages, toOllamaTools } from './toOllamaMessages.js';
import { toolCallFormat, toolCallInstruction } from './toolCallFormat.js';

/** What `ollama()` takes. */
export interface OllamaModelOptions {
  /** The model as Ollama names it, e.g. `qwen3:8b` or `llama3.2`. */
  model: string;
  /** The server (default: `OLLAMA_HOST`, else `http://127.0.0.1:11434`). */
  host?: string;
  /** Ask a thinking model to think (`true`, or an effort for models that take one). */
  think?: boolean | 'high' | 'medium' | 'low';
  /** Model options: `temperature`, `num_ctx`, `num_predict`, `seed`, ... */
  options?: Partial<OllamaOptions>;
  /** How long Ollama keeps the model loaded after the request, e.g. `'10m'` or `-1`. */
  keepAlive?: string | number;
  /** Wait for the server's first answer at most this long, in ms (default 300 000: models load slowly). */
  timeoutMs?: number;
  /** Retries after a failed connection or a 408/409/429/5xx answer (default 1). */
  maxRetries?: number;
  /** Extra HTTP headers, e.g. for a proxy in front of Ollama. */
  headers?: Record<string, string>;
}

/**
 * A ChatModel on a local Ollama server, through the npm `ollama` client and
 * the native `/api/chat` endpoint (streamed NDJSON).
 *
 * Ollama ignores `tool_choice`, so this provider enforces it: `none` offers no
 * tools, a named tool offers only that tool, and `required` or a named tool
 * sends a JSON Schema in `format` that admits only a call of an offered tool —
 * the reply is read back as that tool call. See docs/providers.md.
 *
 * @example
 * const model = ollama({ model: 'qwen3:8b', options: { temperature: 0 } });
 * const agent = createAgent({ name: 'assistant', model, tools: [getWeather] });
 * const { text } = await agent.run('Weather in Lisbon?').result;
 */
export function ollama(options: OllamaModelOptions): ChatModel {
  requireModelName('ollama', options.model);
  const target: OllamaTarget = { host: resolveOllamaHost(options.host), model: options.model };
  registerProviderSecrets(undefined, options.headers);
  return {
    provider: 'ollama',
    modelName: options.model,
    stream(request) {
      return modelEventStream(
        request.signal,
        (signal) => streamReply(options, target, request, signal),
        (error) => ollamaStreamError(target, error),
      );
    },
  };
}

async function* streamReply(
  options: OllamaModelOptions,
  target: OllamaTarget,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const offer = resolveToolOffer(request);
  const client = new Ollama({
    host: target.host,
    headers: options.headers,
    fetch: createOllamaFetch({
      ...target,
      signal,
      timeoutMs: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    }),
  });
  const chunks = await client.chat({ ...buildChatRequest(options, request, offer), stream: true });
  yield* ollamaReplyEvents(chunks, request.messages, offer);
}

/** The `/api/chat` body for one request (without `stream`). */
export function buildChatRequest(options: OllamaModelOptions, request: ChatRequest, offer: ToolOffer): OllamaChatRequest {
  const messages = offer.mustCall ? [...request.messages, toolCallInstruction(offer.tools)] : request.messages;
  const body: OllamaChatRequest = { model: options.model, messages: toOllamaMessages(messages) };
  if (offer.tools.length > 0) body.tools = toOllamaTools(offer.tools);
  const format: JsonSchema | undefined = offer.mustCall ? toolCallFormat(offer.tools) : request.responseFormat?.schema;
  if (format !== undefined) body.format = format;
  if (options.think !== undefined) body.think = options.think;
  if (options.options !== undefined) body.options = options.options;
  if (options.keepAlive !== undefined) body.keep_alive = options.keepAlive;
  return body;
}
