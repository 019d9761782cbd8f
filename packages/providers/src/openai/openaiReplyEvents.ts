import type { FinishReason, Message, ModelEvent, Usage } from '@agentchart/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { streamInterrupted, type OpenAITarget } from './openaiErrors.js';
import { type ToolCallDelta, ToolCallAssembler } from './toolCallAssembler.js';

/** Reasoning fields some servers add to deltas (vLLM, llama.cpp, DeepSeek: `reasoning_content`; Ollama, OpenRouter: `reasoning`). */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

/**
 * Turns chat-completion chunks into model events: text and reasoning as
 * deltas; tool calls assembled from their deltas and emitted whole once the
 * reply is complete; then usage and the finish reason. A stream that ends
 * without a finish reason broke off and ends with MODEL_STREAM_INTERRUPTED.
 */
export async function* openaiReplyEvents(
  chunks: AsyncIterable<ChatCompletionChunk>,
  transcript: readonly Message[],
  target: OpenAITarget,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const toolCalls = new ToolCallAssembler();
  let finishReason: ChatCompletionChunk.Choice['finish_reason'] | undefined;
  let usage: Usage | undefined;

  for await (const chunk of chunks) {
    if (chunk.usage) usage = { inputTokens: chunk.usage.prompt_tokens ?? 0, outputTokens: chunk.usage.completion_tokens ?? 0 };
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta as (ChatCompletionChunk.Choice.Delta & ReasoningDelta) | undefined;
    const reasoning = delta?.reasoning_content ?? delta?.reasoning;
    if (reasoning) yield { type: 'reasoning-delta', text: reasoning };
    if (delta?.content) yield { type: 'text-delta', text: delta.content };
    for (const callDelta of delta?.tool_calls ?? []) toolCalls.add(callDelta as ToolCallDelta);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  if (signal.aborted) return;
  if (finishReason === undefined) throw streamInterrupted(target, 'the stream ended without a finish reason');

  for (const call of toolCalls.finish(transcript)) yield { type: 'tool-call', call };
  if (usage) yield { type: 'usage', usage };
  yield { type: 'finish', reason: toFinishReason(finishReason, toolCalls.size > 0) };
}

function toFinishReason(reason: ChatCompletionChunk.Choice['finish_reason'], calledTools: boolean): FinishReason {
  switch (reason) {
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'stop':
      return calledTools ? 'tool-calls' : 'stop';
    default:
      return 'other';
  }
}
