import {
  AbortedError,
  type ChatModel,
  type ChatRequest,
  type FinishReason,
  type ModelEvent,
  ModelError,
  type ToolCall,
  type Usage,
} from '@agentchart/core';
import { Observable } from 'rxjs';

/** One scripted model reply. */
export interface ScriptedTurn {
  /** The reply text. */
  text?: string;
  /** Thinking text, emitted before the reply text. */
  reasoning?: string;
  /** Tool calls; ids default to `call_<request>_<index>`. */
  toolCalls?: ScriptedToolCall[];
  /** Stream the text in pieces: a piece length, or the exact pieces. */
  chunks?: number | string[];
  usage?: Usage;
  finishReason?: FinishReason;
  /** Fail the stream with this error after the text and tool calls. */
  error?: Error | string;
  /** Wait this long before replying (overrides the model's `latencyMs`). */
  latencyMs?: number;
}

export interface ScriptedToolCall {
  name: string;
  arguments?: unknown;
  id?: string;
  /** Simulate a model whose argument text is not valid JSON. */
  malformedArguments?: string;
}

/** Computes a reply from the request; `index` counts requests from 0. */
export type ScriptedResponder = (request: RecordedRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>;

export interface ScriptedModelOptions {
  /** The model name reported in `modelName` (default `scripted`). */
  name?: string;
  /** Latency before each reply, in ms (default 0: replies synchronously). */
  latencyMs?: number;
  /** Keep every request in `requests` (default true; turn off for long benchmarks). */
  recordRequests?: boolean;
}

/** A request as the scripted model recorded it (without the signal). */
export type RecordedRequest = Omit<ChatRequest, 'signal'>;

/** A deterministic ChatModel that records what it was shown. */
export interface ScriptedModel extends ChatModel {
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
}

/**
 * A deterministic model for tests and demos: it replies with scripted turns in
 * order (or computes each reply with a function) and records every request,
 * so a test can assert exactly what the model was shown.
 *
 * @example
 * const model = scriptedModel([
 *   { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
 *   { text: 'The sum is 5.', chunks: 4 },
 * ]);
 * await createAgent({ name: 'calc', model, tools: [add] }).run('2+3?').result;
 * model.requests[1].messages.at(-1); // the tool result the model saw
 */
export function scriptedModel(script: readonly ScriptedTurn[] | ScriptedResponder, options: ScriptedModelOptions = {}): ScriptedModel {
  const requests: RecordedRequest[] = [];
  const record = options.recordRequests ?? true;
  let requestCount = 0;
  const respond: ScriptedResponder =
    typeof script === 'function'
      ? script
      : (_request, index) => {
          const turn = script[index];
          if (turn === undefined) {
            throw new ModelError(
              'MODEL_SCRIPT_EXHAUSTED',
              `The scripted model received request ${index + 1} but its script has only ${script.length} turn(s). ` +
                'Add turns, or pass a function (request, index) => turn.',
              { requestIndex: index, turns: script.length },
            );
          }
          return turn;
        };

  return {
    provider: 'scripted',
    modelName: options.name ?? 'scripted',
    requests,
    stream(request) {
      return new Observable<ModelEvent>((subscriber) => {
        const { signal, ...recorded } = request;
        // Like a real provider: an aborted request is never sent, and an abort ends the stream with AbortedError.
        if (signal?.aborted) {
          subscriber.error(new AbortedError('The model request was aborted before it was sent.'));
          return undefined;
        }
        const index = requestCount++;
        const snapshot: RecordedRequest = { ...recorded, messages: [...request.messages], tools: [...request.tools] };
        if (record) requests.push(snapshot);
        let timer: ReturnType<typeof setTimeout> | undefined;
        let closed = false;
        const onAbort = () => subscriber.error(new AbortedError('The model request was aborted.'));
        signal?.addEventListener('abort', onAbort, { once: true });

        const play = (turn: ScriptedTurn) => {
          if (closed) return;
          for (const event of turnEvents(turn, index)) subscriber.next(event);
          if (turn.error !== undefined) subscriber.error(typeof turn.error === 'string' ? new Error(turn.error) : turn.error);
          else subscriber.complete();
        };
        const begin = (turn: ScriptedTurn) => {
          const latency = turn.latencyMs ?? options.latencyMs ?? 0;
          if (latency > 0) timer = setTimeout(() => play(turn), latency);
          else play(turn);
        };

        try {
          const reply = respond(snapshot, index);
          if (reply instanceof Promise) reply.then(begin, (error: unknown) => subscriber.error(error));
          else begin(reply);
        } catch (error) {
          subscriber.error(error);
        }
        return () => {
          closed = true;
          if (timer !== undefined) clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        };
      });
    },
  };
}

function* turnEvents(turn: ScriptedTurn, requestIndex: number): Generator<ModelEvent> {
  if (turn.reasoning) yield { type: 'reasoning-delta', text: turn.reasoning };
  if (turn.text) for (const piece of splitText(turn.text, turn.chunks)) yield { type: 'text-delta', text: piece };
  const calls = turn.toolCalls ?? [];
  for (let i = 0; i < calls.length; i++) yield { type: 'tool-call', call: toToolCall(calls[i] as ScriptedToolCall, requestIndex, i) };
  if (turn.usage) yield { type: 'usage', usage: turn.usage };
  if (turn.error === undefined) yield { type: 'finish', reason: turn.finishReason ?? (calls.length > 0 ? 'tool-calls' : 'stop') };
}

function toToolCall(call: ScriptedToolCall, requestIndex: number, callIndex: number): ToolCall {
  const toolCall: ToolCall = { id: call.id ?? `call_${requestIndex}_${callIndex}`, name: call.name, arguments: call.arguments ?? {} };
  if (call.malformedArguments !== undefined) {
    toolCall.arguments = undefined;
    toolCall.malformedArguments = call.malformedArguments;
  }
  return toolCall;
}

function splitText(text: string, chunks: ScriptedTurn['chunks']): string[] {
  if (chunks === undefined) return [text];
  if (Array.isArray(chunks)) return chunks;
  const size = Math.max(1, Math.floor(chunks));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}
