import type { FinishReason, Message, ModelEvent, Usage } from '@agentchart/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { synthesizeCallId } from '../shared/callIds.js';
import { HeldText } from '../shared/heldText.js';
import type { ToolOffer } from '../shared/toolOffer.js';
import { ForcedCallMissed, readForcedCall } from '../ollama/toolCallFormat.js';
import { streamInterrupted, type OpenAITarget } from './openaiErrors.js';
import { type ToolCallDelta, ToolCallAssembler } from './toolCallAssembler.js';

/** Fields some servers add to deltas: reasoning (vLLM, llama.cpp, DeepSeek: `reasoning_content`; Ollama, OpenRouter, newer vLLM: `reasoning`) and OpenAI's `refusal`. */
interface ExtraDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
  refusal?: string | null;
}

/** How a reply is read. */
export interface OpenAIReplyReading {
  offer: ToolOffer;
  /** Take a text that is nothing but a written-out tool call as that call (tools offered, not forced). */
  textualToolCalls: boolean;
  /** On a forced step without a call, throw `ForcedCallMissed` (the provider asks again) instead of showing the text. */
  reaskForcedCall?: boolean;
}

/**
 * Turns chat-completion chunks into model events: text and reasoning as
 * deltas; tool calls assembled from their deltas and emitted whole once the
 * reply is complete; then usage and the finish reason. A refusal
 * (`delta.refusal`) is shown as text and ends with `content-filter`. A
 * `stop` that ends a reply with calls (vLLM's named tool choice: its
 * chat_completion/serving.py sends `"tool_calls"` only for `auto` and
 * `required`) is `tool-calls`. Text that is nothing but a written-out call becomes that
 * call when tools were offered; on a forced step whose server sent text,
 * the first JSON object of it is the call. A stream that ends without a
 * finish reason broke off and ends with MODEL_STREAM_INTERRUPTED.
 */
export async function* openaiReplyEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  transcript: readonly Message[],
  target: OpenAITarget,
  signal: AbortSignal,
  reading: OpenAIReplyReading = { offer: { tools: [], mustCall: false }, textualToolCalls: false },
): AsyncGenerator<ModelEvent> {
  const { offer } = reading;
  const toolCalls = new ToolCallAssembler();
  const held = new HeldText(reading.textualToolCalls && offer.tools.length > 0, offer.mustCall);
  let finishReason: ChatCompletionChunk.Choice['finish_reason'] | undefined;
  let usage: Usage | undefined;
  let refused = false;

  for await (const chunk of chunks) {
    if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta as (ChatCompletionChunk.Choice.Delta & ExtraDelta) | undefined;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
    if (delta?.content) {
      const shown = held.push(delta.content);
      if (shown !== undefined) yield { type: 'text-delta', text: shown };
    }
    if (delta?.refusal) {
      refused = true;
      yield { type: 'text-delta', text: delta.refusal };
    }
    for (const callDelta of delta?.tool_calls ?? []) toolCalls.add(callDelta as ToolCallDelta);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (signal.aborted) return;
  if (finishReason === undefined) throw streamInterrupted(target, 'the stream ended without a finish reason');

  const calls = toolCalls.finish(transcript);
  for (const call of calls) yield { type: 'tool-call', call };
  let textualCalls = 0;
  if (calls.length === 0 && offer.mustCall && !refused) {
    const text = held.pending;
    held.finish([]);
    try {
      yield { type: 'tool-call', call: readForcedCall(text, offer.tools, synthesizeCallId('call', transcript, 0)) };
      textualCalls = 1;
    } catch (error) {
      if (!(error instanceof ForcedCallMissed) || reading.reaskForcedCall) throw error;
      if (text !== '') yield { type: 'text-delta', text };
    }
  } else {
    const rest = held.finish(calls.length === 0 ? offer.tools : []);
    if (rest.text !== undefined) yield { type: 'text-delta', text: rest.text };
    for (const call of rest.calls ?? []) {
      yield { type: 'tool-call', call: { id: synthesizeCallId('call', transcript, textualCalls), name: call.name, arguments: call.arguments } };
      textualCalls++;
    }
  }
  if (usage) yield { type: 'usage', usage };
  yield { type: 'finish', reason: refused ? 'content-filter' : toFinishReason(finishReason, calls.length + textualCalls > 0) };
}

function toFinishReason(reason: ChatCompletionChunk.Choice['finish_reason'], calledTools: boolean): FinishReason {
  if (calledTools && reason !== 'length') return 'tool-calls';
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'stop':
      return 'stop';
    default:
      return 'other';
  }
}
