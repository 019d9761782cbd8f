import { type ChatModel, type ChatRequest, type JsonSchema, type Message, ModelError, type ModelEvent } from '@agentchart/core';
import type { ChatRequest as OllamaChatRequest, Options as OllamaOptions } from 'ollama';
import { modelEventStream } from '../shared/modelEventStream.js';
import { registerProviderSecrets } from '../shared/registerProviderSecrets.js';
import { requireModelName } from '../shared/requireModelName.js';
import { type ToolOffer, resolveToolOffer } from '../shared/toolOffer.js';
import { boundedLines } from '../transport/boundedLines.js';
import { postStream } from '../transport/postStream.js';
import { serializeRequest } from '../transport/serializeRequest.js';
import { type TransportOptions, type TransportSettings, resolveTransport } from '../transport/transportOptions.js';
import { ToolCallParseFailure, ollamaChunks } from './ollamaChunks.js';
import { type OllamaTarget, ollamaStreamError, ollamaTransportErrors } from './ollamaErrors.js';
import { resolveOllamaHost } from './ollamaHost.js';
import { forcedThink, ollamaServerVersion } from './ollamaVersion.js';
import { ollamaReplyEvents } from './ollamaReplyEvents.js';
import { toOllamaMessages, toOllamaTools } from './toOllamaMessages.js';
import {
  ForcedCallMissed,
  forcedCallReminder,
  forcedCallRetried,
  missedForcedCall,
  toolCallFormat,
  toolCallInstruction,
  unreadableCallRetried,
} from './toolCallFormat.js';
import { synthesizeCallId } from '../shared/callIds.js';

type ForcedThink = ReturnType<typeof forcedThink>;

/** What `ollama()` takes. */
export interface OllamaModelOptions extends TransportOptions {
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
  /** Extra HTTP headers, e.g. for a proxy in front of Ollama. */
  headers?: Record<string, string>;
  /**
   * Read a reply whose text is a tool call written out (`{"name": …,
   * "arguments": …}`, `<tool_call>…</tool_call>`, fenced JSON) as that call
   * when tools were offered (default true). Template-parsed models (llama3.2)
   * often answer so.
   */
  textualToolCalls?: boolean;
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
  const transport = resolveTransport('ollama', options);
  let version: Promise<string | undefined> | undefined;
  const versionOnce = () => (version ??= ollamaServerVersion(target.host, options.headers ?? {}));
  return {
    provider: 'ollama',
    modelName: options.model,
    stream(request) {
      return modelEventStream(
        request.signal,
        (signal) => streamReply(options, transport, target, versionOnce, request, signal),
        (error) => ollamaStreamError(target, error),
      );
    },
  };
}

async function* streamReply(
  options: OllamaModelOptions,
  transport: TransportSettings,
  target: OllamaTarget,
  versionOnce: () => Promise<string | undefined>,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const offer = resolveToolOffer(request);
  // Asked once per provider, on its first forced step: whether `think: false` keeps `format` applied.
  let think = offer.mustCall ? forcedThink(await versionOnce()) : 'as-configured';
  let followUp: Message[] = [];
  // One more request within the step after a call the server could not read, or a forced reply without a call.
  for (let attempt = 0; ; attempt++) {
    try {
      yield* streamOnce(options, transport, target, request, offer, followUp, think, signal);
      return;
    } catch (error) {
      if (think === 'false' && refusedThinkFalse(error)) {
        // A model that cannot stop thinking (gpt-oss takes levels only) may refuse `think: false`: send it as configured.
        think = 'as-configured';
        attempt--;
      } else if (error instanceof ToolCallParseFailure) {
        if (attempt > 0) throw unreadableCallError(target, error.serverMessage);
        yield unreadableCallRetried(error.serverMessage);
        followUp = [unreadableCallNotice(error.serverMessage)];
      } else if (error instanceof ForcedCallMissed) {
        if (attempt > 0) {
          yield { type: 'tool-call', call: missedForcedCall(error.text, offer.tools, synthesizeCallId('ollama', request.messages, 0)) };
          yield { type: 'finish', reason: 'tool-calls' };
          return;
        }
        yield forcedCallRetried(offer.tools);
        followUp = [
          ...(error.text.trim() === '' ? [] : [{ role: 'assistant' as const, content: error.text }]),
          forcedCallReminder(offer.tools, error.text),
        ];
      } else throw error;
    }
  }
}

async function* streamOnce(
  options: OllamaModelOptions,
  transport: TransportSettings,
  target: OllamaTarget,
  request: ChatRequest,
  offer: ToolOffer,
  followUp: readonly Message[],
  think: ForcedThink,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const errors = ollamaTransportErrors(target);
  const body = serializeRequest(() => ({ ...buildChatRequest(options, request, offer, followUp, think), stream: true }), errors.where);
  const response = await postStream({ url: `${target.host}/api/chat`, headers: options.headers ?? {}, body, signal }, transport, errors);
  const chunks = ollamaChunks(
    boundedLines(response.body as ReadableStream<Uint8Array>, { ...transport, firstChunkTimeoutMs: transport.timeoutMs }, errors),
    errors,
  );
  yield* ollamaReplyEvents(chunks, request.messages, offer, {
    textualToolCalls: options.textualToolCalls ?? true,
    ended: () => ollamaStreamError(target, new Error('the stream ended without its `done` line')),
  });
}

/** A 400 answer about `think`: the model does not take `think: false`. */
function refusedThinkFalse(error: unknown): boolean {
  return error instanceof ModelError && error.code === 'MODEL_HTTP_ERROR' && error.details.status === 400 && /think/i.test(error.message);
}

/**
 * What the model is told when Ollama could not read its tool call: the
 * server's own words and what a readable call looks like.
 */
export function unreadableCallNotice(serverMessage: string): Message {
  return {
    role: 'system',
    content:
      `Your last tool call could not be read (the server said: ${serverMessage.slice(0, 300)}). ` +
      "Call the tool again, with its arguments as one valid JSON object that matches the tool's parameters.",
  };
}

function unreadableCallError(target: OllamaTarget, serverMessage: string): ModelError {
  return new ModelError(
    'MODEL_TOOL_CALL_UNREADABLE',
    `Ollama at ${target.host} could not read the tool call model "${target.model}" wrote, twice in one step (${serverMessage.slice(0, 300)}). ` +
      'The model was told once and asked again. Try a larger model or quantisation, `options.temperature: 0`, or fewer tools per step.',
    { host: target.host, model: target.model, serverMessage },
  );
}

/**
 * The `/api/chat` body for one request (without `stream`); `followUp` goes
 * last (a second try within the step); `think` says what a forced step does
 * with thinking so that `format` applies (see `forcedThink`).
 */
export function buildChatRequest(
  options: OllamaModelOptions,
  request: ChatRequest,
  offer: ToolOffer,
  followUp: readonly Message[] = [],
  think: ForcedThink = 'as-configured',
): OllamaChatRequest {
  const messages = [...request.messages, ...(offer.mustCall ? [toolCallInstruction(offer.tools)] : []), ...followUp];
  const body: OllamaChatRequest = { model: options.model, messages: toOllamaMessages(messages) };
  if (offer.tools.length > 0) body.tools = toOllamaTools(offer.tools);
  const format: JsonSchema | undefined = offer.mustCall ? toolCallFormat(offer.tools) : request.responseFormat?.schema;
  if (format !== undefined) body.format = format;
  if (think === 'false') body.think = false;
  else if (options.think !== undefined && !(think === 'no-false' && options.think === false)) body.think = options.think;
  if (options.options !== undefined) body.options = options.options;
  if (options.keepAlive !== undefined) body.keep_alive = options.keepAlive;
  return body;
}
