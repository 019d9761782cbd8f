import type { Observable } from 'rxjs';
import type { Message, ToolCall, Usage } from './messages.js';

/** A JSON Schema object, as sent to a model. */
export type JsonSchema = { [key: string]: unknown };

/** A tool as a model sees it: a name, a description and a JSON Schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Ask providers that support it (OpenAI) to enforce the schema exactly. */
  strict?: boolean;
}

/**
 * What the model may do with the offered tools.
 * - `auto`: call tools or answer, as it likes.
 * - `none`: answer without calling a tool.
 * - `required`: call at least one of the offered tools.
 * - `{ type: 'tool', name }`: call exactly this tool.
 *
 * An allowed subset is expressed by narrowing `ChatRequest.tools`.
 */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/** Ask for a JSON reply that matches a schema (structured output). */
export interface ResponseFormat {
  type: 'json_schema';
  name: string;
  schema: JsonSchema;
}

/** One request to a model. */
export interface ChatRequest {
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  toolChoice: ToolChoice;
  responseFormat?: ResponseFormat;
  /** Allow several tool calls in one reply (default: provider default). */
  parallelToolCalls?: boolean;
  /** Cancels the request; unsubscribing from the stream cancels it too. */
  signal?: AbortSignal;
}

/** Why a model stopped producing output. */
export type FinishReason = 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/**
 * Why a provider could not use a reply and asked the model again within the same request:
 * - `forced-call-missing`: a step that had to call a tool got no call (prose, or nothing);
 * - `tool-call-unreadable`: the server's tool-call parser could not read the call the model wrote
 *   (Ollama's mid-stream `{"error":"failed to parse JSON…"}` line).
 */
export type MalformedReplyReason = 'forced-call-missing' | 'tool-call-unreadable';

/** What a model stream emits, in order; `finish` comes last. */
export type ModelEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason }
  /**
   * The provider could not use the reply it got (see `MalformedReplyReason`), told the model what was
   * wrong and asked once more within the same request: the events after it are the new reply's. An
   * agent reports it as the run event `model.malformed` and counts the step as an error toward
   * `maxConsecutiveErrors` (docs/agent-loop.md).
   */
  | { type: 'malformed-reply'; reason: MalformedReplyReason; message: string };

/**
 * A chat model: a request in, an Observable of model events out. The stream
 * is cold: each subscription makes one request, and unsubscribing aborts it.
 *
 * @example
 * const model: ChatModel = scriptedModel([{ text: 'Hello!' }]);
 * model.stream({ messages: [msg.user('Hi')], tools: [], toolChoice: 'auto' })
 *   .subscribe((event) => console.log(event));
 */
export interface ChatModel {
  /** The provider's name, e.g. `ollama`, `openai`, `scripted`. */
  readonly provider: string;
  /** The model's name as the provider knows it. */
  readonly modelName: string;
  stream(request: ChatRequest): Observable<ModelEvent>;
}
