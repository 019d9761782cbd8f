import type { FinishReason, ModelEvent, Usage } from '@agentchart/core';
import type { LanguageModelV2StreamPart, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { toolCallFromText } from '../shared/parseToolArguments.js';
import { type AiSdkTarget, streamPartError } from './aiSdkErrors.js';

/** A stream part of specification v2 or v3 (v4's parts that agentchart reads have v3's shapes). */
export type AiSdkStreamPart = LanguageModelV2StreamPart | LanguageModelV3StreamPart;

/**
 * The model events of an AI SDK stream: text and reasoning deltas, whole tool
 * calls (their arguments parsed, malformed ones kept as text), the usage and
 * the finish reason. Calls the provider executed itself are not agentchart's
 * to run and are left out; an `error` part ends the stream with a ModelError.
 */
export async function* aiSdkReplyEvents(stream: ReadableStream<AiSdkStreamPart>, target: AiSdkTarget): AsyncGenerator<ModelEvent> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      switch (part.type) {
        case 'text-delta':
          if (part.delta !== '') yield { type: 'text-delta', text: part.delta };
          break;
        case 'reasoning-delta':
          if (part.delta !== '') yield { type: 'reasoning-delta', text: part.delta };
          break;
        case 'tool-call':
          if (part.providerExecuted !== true) yield { type: 'tool-call', call: toolCallFromText(part.toolCallId, part.toolName, part.input) };
          break;
        case 'finish': {
          const usage = usageOf(part.usage);
          if (usage !== undefined) yield { type: 'usage', usage };
          yield { type: 'finish', reason: finishReasonOf(part.finishReason) };
          finished = true;
          break;
        }
        case 'error':
          throw streamPartError(target, part.error);
        default:
          break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  if (!finished) yield { type: 'finish', reason: 'other' };
}

/** Usage in either specification's shape; `undefined` when the provider reported no count. */
function usageOf(usage: unknown): Usage | undefined {
  const record = usage as { inputTokens?: unknown; outputTokens?: unknown } | undefined;
  const input = tokens(record?.inputTokens);
  const output = tokens(record?.outputTokens);
  if (input === undefined && output === undefined) return undefined;
  return { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** A v2 count is a number; a v3 or v4 count is `{ total, … }`. */
function tokens(value: unknown): number | undefined {
  const count = typeof value === 'object' && value !== null ? (value as { total?: unknown }).total : value;
  return typeof count === 'number' && Number.isFinite(count) && count >= 0 ? Math.round(count) : undefined;
}

/** A v2 reason is a string; a v3 or v4 reason is `{ unified, raw }` (v4's `interrupted` is `other`). */
function finishReasonOf(reason: unknown): FinishReason {
  const unified = typeof reason === 'object' && reason !== null ? (reason as { unified?: unknown }).unified : reason;
  switch (unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
      return unified;
    default:
      return 'other';
  }
}
