import type { JsonSchema, Message, ToolSpec } from '@agentchart/core';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';

/**
 * The transcript in the chat-completions shape: tool calls with JSON
 * argument strings (malformed text is sent back as the model wrote it) and
 * tool results as `tool` messages with `tool_call_id`. An assistant
 * message's reasoning goes back in `reasoningField` when the server takes
 * one (see `ServerProfile`).
 *
 * @example
 * toOpenAIMessages([msg.tool('call_1', 'add', '5')]); // [{ role: 'tool', tool_call_id: 'call_1', content: '5' }]
 */
export function toOpenAIMessages(messages: readonly Message[], reasoningField?: 'reasoning_content' | 'reasoning'): ChatCompletionMessageParam[] {
  const wireId = modelCallIds(messages);
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return message.name === undefined
          ? { role: 'user', content: message.content }
          : { role: 'user', content: message.content, name: message.name };
      case 'assistant': {
        const param: ChatCompletionMessageParam = { role: 'assistant', content: message.content };
        if (message.name !== undefined) param.name = message.name;
        if (reasoningField !== undefined && message.reasoning) (param as unknown as Record<string, unknown>)[reasoningField] = message.reasoning;
        if (message.toolCalls && message.toolCalls.length > 0) {
          param.tool_calls = message.toolCalls.map((call) => ({
            id: call.modelId ?? call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.malformedArguments ?? JSON.stringify(call.arguments ?? {}) },
          }));
        }
        return param;
      }
      case 'tool':
        return { role: 'tool', tool_call_id: wireId.get(message.toolCallId) ?? message.toolCallId, content: message.content };
    }
  });
}

/** The model's own ids of calls the runtime renamed (a repeated id), by the run-unique id. */
function modelCallIds(messages: readonly Message[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || message.toolCalls === undefined) continue;
    for (const call of message.toolCalls) if (call.modelId !== undefined) ids.set(call.id, call.modelId);
  }
  return ids;
}

/** Tools as functions; a tool that asks for `strict` gets a schema strict mode accepts. */
export function toOpenAITools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.strict ? closeObjects(tool.parameters) : tool.parameters,
      ...(tool.strict ? { strict: true } : {}),
    },
  }));
}

/**
 * Sets `additionalProperties: false` on every object schema, as OpenAI's
 * strict mode requires. (Strict mode also requires every property to be
 * required: `defineTool({ strict: true })` already rewrites a tool's schema
 * so; a response format's schema must list every property in `required`.)
 *
 * @example
 * closeObjects({ type: 'object', properties: { a: { type: 'number' } } });
 * // { type: 'object', properties: {...}, additionalProperties: false }
 */
export function closeObjects(schema: JsonSchema): JsonSchema {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const copy: JsonSchema = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, visit(inner)]));
    if (copy.type === 'object' && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  return visit(schema) as JsonSchema;
}
