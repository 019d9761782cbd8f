import type { FinishReason, Message, ModelEvent, ToolCall } from '@agentchart/core';
import type { ChatResponse } from 'ollama';
import { synthesizeCallId } from '../shared/callIds.js';
import { toolCallFromText } from '../shared/parseToolArguments.js';
import type { ToolOffer } from '../shared/toolOffer.js';
import { parseToolCallReply } from './toolCallFormat.js';

/** A streamed `/api/chat` chunk, as far as this module reads it. */
export type OllamaChunk = Pick<ChatResponse, 'message' | 'done'> &
  Partial<Pick<ChatResponse, 'done_reason' | 'prompt_eval_count' | 'eval_count'>>;

/**
 * Turns Ollama's NDJSON chunks into model events: `thinking` and `content`
 * as deltas, each tool call (Ollama sends them whole, arguments as objects,
 * without ids) as one event with a synthesized stable id, then usage and the
 * finish reason from the `done` chunk. When a call was forced through
 * `format`, the content is the call's JSON and is read back as a tool call
 * instead of being shown as text.
 */
export async function* ollamaReplyEvents(
  chunks: AsyncIterable<OllamaChunk>,
  transcript: readonly Message[],
  offer: ToolOffer,
): AsyncGenerator<ModelEvent> {
  let callCount = 0;
  let forcedReply = '';
  const nextId = () => synthesizeCallId('ollama', transcript, callCount++);

  for await (const chunk of chunks) {
    const { message } = chunk;
    if (message?.thinking) yield { type: 'reasoning-delta', text: message.thinking };
    if (message?.content) {
      if (offer.mustCall) forcedReply += message.content;
      else yield { type: 'text-delta', text: message.content };
    }
    for (const call of message?.tool_calls ?? []) yield { type: 'tool-call', call: nativeToolCall(call, nextId()) };
    if (!chunk.done) continue;

    // A forced reply is a call even when it is empty: never an answer the agent would take as final.
    if (offer.mustCall && callCount === 0) {
      yield { type: 'tool-call', call: parseToolCallReply(forcedReply, offer.tools, nextId()) };
    }
    yield { type: 'usage', usage: { inputTokens: chunk.prompt_eval_count ?? 0, outputTokens: chunk.eval_count ?? 0 } };
    yield { type: 'finish', reason: finishReason(chunk.done_reason, callCount > 0) };
    return;
  }
}

function nativeToolCall(call: { function: { name: string; arguments: unknown } }, id: string): ToolCall {
  const args = call.function.arguments;
  return typeof args === 'string' ? toolCallFromText(id, call.function.name, args) : { id, name: call.function.name, arguments: args ?? {} };
}

function finishReason(doneReason: string | undefined, calledTools: boolean): FinishReason {
  if (doneReason === 'length') return 'length';
  if (calledTools) return 'tool-calls';
  return doneReason === undefined || doneReason === 'stop' ? 'stop' : 'other';
}
