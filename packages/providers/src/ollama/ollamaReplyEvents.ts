import type { FinishReason, Message, ModelError, ModelEvent, ToolCall } from '@agentchart/core';
import type { ChatResponse } from 'ollama';
import { synthesizeCallId } from '../shared/callIds.js';
import { toolCallFromText } from '../shared/parseToolArguments.js';
import { HeldText } from '../shared/heldText.js';
import type { ToolOffer } from '../shared/toolOffer.js';
import { readForcedCall } from './toolCallFormat.js';

/** A native tool call as Ollama sends it: an `id` (v0.12.10+) and `function.index` when present. */
export interface OllamaToolCall {
  id?: string;
  function: { index?: number; name: string; arguments: unknown };
}

/** A streamed `/api/chat` chunk, as far as this module reads it. */
export type OllamaChunk = Partial<Pick<ChatResponse, 'done_reason' | 'prompt_eval_count' | 'eval_count'>> & {
  done: boolean;
  message?: { role?: string; content?: string; thinking?: string; tool_calls?: OllamaToolCall[] };
};

/** How a reply is read. */
export interface ReplyReading {
  /** Take a text that is nothing but a written-out tool call as that call (tools offered, not forced). */
  textualToolCalls: boolean;
  /** The error for a stream that ended without its `done` line. */
  ended(): ModelError;
}

/**
 * Turns Ollama's NDJSON chunks into model events: `thinking` and `content`
 * as deltas, each tool call (Ollama sends them whole, arguments as objects)
 * as one event — with Ollama's own id when it sends one, else a synthesized
 * stable id — then usage and the finish reason from the `done` chunk. When a
 * call was forced, the content is the call's JSON and is read back as a
 * tool call instead of being shown as text (the first JSON object, also
 * fenced; `ForcedCallMissed` when there is none). When tools were offered,
 * text held back that turns out to be nothing but written-out calls becomes
 * those calls; any other text is streamed as it comes.
 */
export async function* ollamaReplyEvents(
  chunks: AsyncIterable<OllamaChunk>,
  transcript: readonly Message[],
  offer: ToolOffer,
  reading: ReplyReading,
): AsyncGenerator<ModelEvent> {
  let callCount = 0;
  let forcedText = '';
  const held = new HeldText(!offer.mustCall && reading.textualToolCalls && offer.tools.length > 0);
  const nextId = (serverId?: string) => serverId || synthesizeCallId('ollama', transcript, callCount);

  for await (const chunk of chunks) {
    const { message } = chunk;
    if (message?.thinking) yield { type: 'reasoning-delta', text: message.thinking };
    if (message?.content) {
      if (offer.mustCall) forcedText += message.content;
      else {
        const shown = held.push(message.content);
        if (shown !== undefined) yield { type: 'text-delta', text: shown };
      }
    }
    for (const call of message?.tool_calls ?? []) {
      yield { type: 'tool-call', call: nativeToolCall(call, nextId(call.id)) };
      callCount++;
    }
    if (!chunk.done) continue;

    if (offer.mustCall && callCount === 0) {
      // A forced reply is a call even when it is empty: never an answer the agent would take as final.
      yield { type: 'tool-call', call: readForcedCall(forcedText, offer.tools, nextId()) };
      callCount++;
    } else if (!offer.mustCall) {
      const rest = held.finish(callCount === 0 ? offer.tools : []);
      if (rest.text !== undefined) yield { type: 'text-delta', text: rest.text };
      for (const call of rest.calls ?? []) {
        yield { type: 'tool-call', call: { id: nextId(), name: call.name, arguments: call.arguments } };
        callCount++;
      }
    }
    yield { type: 'usage', usage: { inputTokens: chunk.prompt_eval_count ?? 0, outputTokens: chunk.eval_count ?? 0 } };
    yield { type: 'finish', reason: finishReason(chunk.done_reason, callCount > 0) };
    return;
  }
  throw reading.ended();
}

function nativeToolCall(call: OllamaToolCall, id: string): ToolCall {
  const args = call.function.arguments;
  return typeof args === 'string' ? toolCallFromText(id, call.function.name, args) : { id, name: call.function.name, arguments: args ?? {} };
}

function finishReason(doneReason: string | undefined, calledTools: boolean): FinishReason {
  if (doneReason === 'length') return 'length';
  if (calledTools) return 'tool-calls';
  return doneReason === undefined || doneReason === 'stop' ? 'stop' : 'other';
}
