import { type JsonSchema, type Message, ModelError, type ToolCall, type ToolSpec } from '@agentchart/core';

/**
 * The JSON Schema sent in Ollama's `format` when a tool call is required: it
 * admits exactly one call of an offered tool with valid arguments — an anyOf
 * over the tools, each `{ name: <const>, arguments: <its schema> }` (a single
 * tool needs no anyOf). Ollama turns `format` into a grammar, so decoding
 * itself cannot produce an answer, an unknown tool or ill-typed arguments.
 *
 * @example
 * toolCallFormat([addSpec]);
 * // { type: 'object', properties: { name: { type: 'string', const: 'add' }, arguments: {...} },
 * //   required: ['name', 'arguments'], additionalProperties: false }
 */
export function toolCallFormat(tools: readonly ToolSpec[]): JsonSchema {
  const options = tools.map(
    (tool): JsonSchema => ({
      type: 'object',
      properties: { name: { type: 'string', const: tool.name }, arguments: tool.parameters },
      required: ['name', 'arguments'],
      additionalProperties: false,
    }),
  );
  return options.length === 1 ? (options[0] as JsonSchema) : { anyOf: options };
}

/**
 * The instruction added (as a last system message) when a call is forced, so
 * the model knows what its constrained output means.
 */
export function toolCallInstruction(tools: readonly ToolSpec[]): Message {
  const names = tools.map((tool) => `"${tool.name}"`).join(', ');
  const content =
    tools.length === 1
      ? `Call the tool ${names} now. Answer only with a JSON object {"name": ${names}, "arguments": {...}} whose arguments match the tool's parameters.`
      : `Call one of the tools ${names} now. Answer only with a JSON object {"name": <tool name>, "arguments": {...}} whose arguments match that tool's parameters.`;
  return { role: 'system', content };
}

/**
 * Reads a constrained reply back as a tool call. Text that is not complete
 * JSON (a reply cut off by a token limit) still yields a call — with
 * `malformedArguments` holding the text — as long as the tool can be told.
 */
export function parseToolCallReply(text: string, tools: readonly ToolSpec[], id: string): ToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (isCallShape(parsed)) {
    return { id, name: parsed.name, arguments: parsed.arguments ?? {} };
  }
  const name = tools.length === 1 ? tools[0]?.name : /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (name === undefined) {
    throw new ModelError(
      'MODEL_RESPONSE_INVALID',
      `The model had to call one of ${tools.map((tool) => tool.name).join(', ')}, but its reply names no tool: ${JSON.stringify(text.slice(0, 200))}. ` +
        'The reply was probably cut off: raise `options.num_predict` or `options.num_ctx`.',
      { text },
    );
  }
  return { id, name, arguments: undefined, malformedArguments: text };
}

function isCallShape(value: unknown): value is { name: string; arguments?: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { name?: unknown }).name === 'string';
}
