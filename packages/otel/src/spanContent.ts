import type { Message, ToolCall } from '@agentchart/core';
import { sanitizeValue } from '@agentchart/inspect';
import type { TracingSettings } from './tracingSettings.js';

/** One message in the GenAI conventions' JSON shape (`role` and typed `parts`). */
interface ConventionMessage {
  role: string;
  parts: Record<string, unknown>[];
  name?: string;
  finish_reason?: string;
}

const toolCallPart = (call: ToolCall) => ({
  type: 'tool_call',
  id: call.id,
  name: call.name,
  arguments: call.arguments ?? call.malformedArguments ?? null,
});

/** A transcript message in the conventions' shape. */
export function conventionMessage(message: Message, finishReason?: string): ConventionMessage {
  const parts: Record<string, unknown>[] = [];
  let converted: ConventionMessage;
  switch (message.role) {
    case 'tool':
      parts.push({ type: 'tool_call_response', id: message.toolCallId, response: message.content });
      converted = { role: 'tool', parts };
      break;
    case 'assistant':
      if (message.reasoning) parts.push({ type: 'reasoning', content: message.reasoning });
      if (message.content !== '') parts.push({ type: 'text', content: message.content });
      for (const call of message.toolCalls ?? []) parts.push(toolCallPart(call));
      converted = { role: 'assistant', parts };
      if (message.name !== undefined) converted.name = message.name;
      break;
    case 'user':
      parts.push({ type: 'text', content: message.content });
      converted = { role: 'user', parts };
      if (message.name !== undefined) converted.name = message.name;
      break;
    case 'system':
      parts.push({ type: 'text', content: message.content });
      converted = { role: 'system', parts };
      break;
  }
  if (finishReason !== undefined) converted.finish_reason = finishReason;
  return converted;
}

/**
 * Content as a span attribute value: sanitised (secrets redacted, long
 * strings cut) and then JSON, or `undefined` when content is not captured.
 */
export function contentAttribute(settings: TracingSettings, value: unknown): string | undefined {
  if (!settings.captureContent) return undefined;
  const clean = sanitizeValue(value, settings.sanitize);
  return typeof clean === 'string' ? clean : JSON.stringify(clean);
}
