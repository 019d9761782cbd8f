import { type JsonSchema, type Message, ModelError, type ModelEvent, type ToolCall, type ToolSpec, redactText } from '@agentchart/core';
import { asCall, firstJsonObject } from '../shared/textualToolCalls.js';

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
 * A forced reply that holds no call at all (prose, an empty reply): the
 * provider tells the model what was expected and asks once more.
 */
export class ForcedCallMissed extends Error {
  constructor(readonly text: string) {
    super('The forced reply holds no tool call.');
    this.name = 'ForcedCallMissed';
  }
}

/**
 * Reads a forced reply back as a tool call. The reply is the call's JSON
 * when `format` applied; when it did not (a thinking model, an old server),
 * the first JSON object of the text is taken — also inside a markdown fence,
 * also bare arguments when one tool was forced. Text cut off mid-call (a
 * token limit) still yields a call of the tool it names, with the text in
 * `malformedArguments`. Anything else throws `ForcedCallMissed`.
 *
 * @example
 * readForcedCall('```json\n{"name":"add","arguments":{"a":1,"b":2}}\n```', [add], 'ollama_0_0');
 * // { id: 'ollama_0_0', name: 'add', arguments: { a: 1, b: 2 } }
 */
export function readForcedCall(text: string, tools: readonly ToolSpec[], id: string): ToolCall {
  const object = firstJsonObject(text);
  const call = asCall(object);
  if (call !== undefined && tools.some((tool) => tool.name === call.name)) return { id, name: call.name, arguments: call.arguments };
  if (call === undefined && object !== undefined && tools.length === 1 && !('name' in (object as object))) {
    return { id, name: (tools[0] as ToolSpec).name, arguments: object };
  }
  const named = /^\s*\{\s*"name"\s*:\s*"([^"]+)"/.exec(text)?.[1];
  if (named !== undefined && tools.some((tool) => tool.name === named)) return { id, name: named, arguments: undefined, malformedArguments: text };
  throw new ForcedCallMissed(text);
}

/**
 * What the model is told after a forced reply held no call: which call was
 * expected, in which shape, and the start of what it wrote.
 */
export function forcedCallReminder(tools: readonly ToolSpec[], text: string): Message {
  const names = tools.map((tool) => `"${tool.name}"`).join(', ');
  const wrote = text.trim() === '' ? 'nothing' : JSON.stringify(text.trim().slice(0, 200));
  return {
    role: 'system',
    content:
      `Your reply was not a tool call (you wrote ${wrote}). You must call ${tools.length === 1 ? `the tool ${names}` : `one of the tools ${names}`} now. ` +
      'Answer with nothing but a JSON object {"name": <tool name>, "arguments": {...}} whose arguments match the tool\'s parameters.',
  };
}

/**
 * The model event for a forced step whose reply had no call: the model is
 * told what was expected and asked once more (the agent counts it as an
 * error toward `maxConsecutiveErrors`). The model's text is not repeated.
 *
 * @example
 * forcedCallRetried([add.spec]).message; // 'The step had to call "add", but the reply had no tool call; …'
 */
export function forcedCallRetried(tools: readonly ToolSpec[]): ModelEvent {
  const names = tools.map((tool) => `"${tool.name}"`).join(', ');
  return {
    type: 'malformed-reply',
    reason: 'forced-call-missing',
    message: `The step had to call ${tools.length === 1 ? names : `one of ${names}`}, but the reply had no tool call; the model was told what was expected and asked once more.`,
  };
}

/**
 * The model event for a call the server's tool parser could not read (its
 * own words, shortened): the model is told and asked once more.
 *
 * @example
 * unreadableCallRetried('failed to parse JSON: unexpected end of JSON input').reason; // 'tool-call-unreadable'
 */
export function unreadableCallRetried(serverMessage: string): ModelEvent {
  return {
    type: 'malformed-reply',
    reason: 'tool-call-unreadable',
    message: `The server could not read the tool call (${redactText(serverMessage.slice(0, 300))}); the model was told and asked once more.`,
  };
}

/**
 * The last resort after the model was reminded and still wrote no call:
 * with one tool forced, a call of it holding the text as
 * `malformedArguments` (the agent answers it with an error result, counted
 * for `maxConsecutiveErrors`); with several, MODEL_RESPONSE_INVALID.
 */
export function missedForcedCall(text: string, tools: readonly ToolSpec[], id: string): ToolCall {
  if (tools.length === 1) return { id, name: (tools[0] as ToolSpec).name, arguments: undefined, malformedArguments: text };
  throw new ModelError(
    'MODEL_RESPONSE_INVALID',
    `The model had to call one of ${tools.map((tool) => tool.name).join(', ')}, but twice wrote no call (the second time: ${JSON.stringify(text.slice(0, 200))}). ` +
      'If the reply was cut off, raise `options.num_predict` or `options.num_ctx`; on a thinking model, see docs/providers.md (forced calls on thinking models).',
    { text: text.slice(0, 2000) },
  );
}
