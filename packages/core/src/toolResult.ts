/** Marks a tool's return value that carries a separate text for the model. */
const TOOL_RESULT = Symbol.for('agentchart.toolResult');

/** A value for the caller together with the text the model sees. */
export interface ToolResultValue<T = unknown> {
  readonly [TOOL_RESULT]: true;
  readonly value: T;
  readonly text: string;
}

/**
 * Returns `value` to the program while the model (or a validator) sees `text`.
 *
 * @example
 * execute: async ({ id }) => toolResult(await db.load(id), { text: `Loaded record ${id}` })
 */
export function toolResult<T>(value: T, options: { text: string }): ToolResultValue<T> {
  return { [TOOL_RESULT]: true, value, text: options.text };
}

/** True for values made by `toolResult`. */
export function isToolResultValue(value: unknown): value is ToolResultValue {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_RESULT] === true;
}

/**
 * The text a model sees for a tool's return value: strings as they are,
 * `undefined` as an empty string, anything else as JSON.
 *
 * @example
 * toolOutputText({ ok: true }) // '{"ok":true}'
 */
export function toolOutputText(output: unknown): string {
  if (isToolResultValue(output)) return output.text;
  if (typeof output === 'string') return output;
  if (output === undefined) return '';
  try {
    return JSON.stringify(output) ?? String(output);
  } catch {
    return String(output);
  }
}

/** The program-facing value of a tool's return value (unwraps `toolResult`). */
export function toolOutputValue(output: unknown): unknown {
  return isToolResultValue(output) ? output.value : output;
}
