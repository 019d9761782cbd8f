import type { ToolCall } from '@agentchart/core';

/**
 * Parses a model's tool-argument text. Empty text means no arguments (`{}`);
 * text that is not JSON is kept whole in `malformedArguments`, so the agent
 * can show the model what it wrote instead of failing the run.
 *
 * @example
 * toolCallFromText('call_1', 'add', '{"a":1,"b":2}'); // { id, name, arguments: { a: 1, b: 2 } }
 * toolCallFromText('call_1', 'add', '{"a":1,');       // { id, name, arguments: undefined, malformedArguments: '{"a":1,' }
 */
export function toolCallFromText(id: string, name: string, argumentsText: string): ToolCall {
  if (argumentsText.trim() === '') return { id, name, arguments: {} };
  try {
    return { id, name, arguments: JSON.parse(argumentsText) as unknown };
  } catch {
    return { id, name, arguments: undefined, malformedArguments: argumentsText };
  }
}
