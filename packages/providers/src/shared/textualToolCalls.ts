import type { ToolSpec } from '@agentchart/core';

/** A call found in a reply's text: a tool's name and its arguments. */
export interface TextualCall {
  name: string;
  arguments: unknown;
}

const TOOL_CALL_BLOCK = /<tool_call>([\s\S]*?)<\/tool_call>/g;
const FENCE = /^```[\w-]*\s*\n?([\s\S]*?)\n?```$/;

/**
 * The tool calls a reply's text consists of, when it is nothing but calls
 * written out in a known form — `{"name": …, "arguments" | "parameters": …}`
 * (one, or an array), one or more `<tool_call>…</tool_call>` blocks, or one
 * fenced JSON block of those — and every call names an offered tool.
 * Otherwise undefined: the text is an answer.
 *
 * @example
 * textualToolCalls('<tool_call>{"name":"add","arguments":{"a":1}}</tool_call>', [add]);
 * // [{ name: 'add', arguments: { a: 1 } }]
 */
export function textualToolCalls(text: string, tools: readonly ToolSpec[]): TextualCall[] | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || tools.length === 0) return undefined;
  const offered = new Set(tools.map((tool) => tool.name));
  const named = (calls: TextualCall[] | undefined) =>
    calls !== undefined && calls.length > 0 && calls.every((call) => offered.has(call.name)) ? calls : undefined;

  if (trimmed.startsWith('<tool_call>')) {
    const blocks = [...trimmed.matchAll(TOOL_CALL_BLOCK)];
    if (blocks.length === 0 || trimmed.replace(TOOL_CALL_BLOCK, '').trim() !== '') return undefined;
    const calls = blocks.map((block) => callsFromJson(block[1] ?? ''));
    return calls.every((found) => found !== undefined) ? named(calls.flat() as TextualCall[]) : undefined;
  }
  const fenced = FENCE.exec(trimmed);
  return named(callsFromJson(fenced ? (fenced[1] ?? '') : trimmed));
}

/** Calls from JSON text: one call object or an array of them; undefined for anything else. */
export function callsFromJson(text: string): TextualCall[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.trim());
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const calls = list.map(asCall);
  return calls.length > 0 && calls.every((call) => call !== undefined) ? (calls as TextualCall[]) : undefined;
}

/** `{ name, arguments }`, `{ name, parameters }` or `{ type: 'function', function: { name, arguments } }`. */
export function asCall(value: unknown): TextualCall | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record.function === 'object' && record.function !== null && typeof record.name !== 'string') return asCall(record.function);
  if (typeof record.name !== 'string') return undefined;
  const args = 'arguments' in record ? record.arguments : 'parameters' in record ? record.parameters : undefined;
  if (args === undefined) return undefined;
  if (typeof args === 'string') {
    try {
      return { name: record.name, arguments: JSON.parse(args) as unknown };
    } catch {
      return undefined;
    }
  }
  return { name: record.name, arguments: args };
}

/**
 * The first JSON object in a text — the whole text, a fenced block, or the
 * first balanced `{…}` that parses — for a forced reply that came with prose
 * around it (a thinking model whose `format` did not apply).
 *
 * @example
 * firstJsonObject('Sure!\n```json\n{"name":"add","arguments":{}}\n```'); // { name: 'add', arguments: {} }
 */
export function firstJsonObject(text: string): unknown {
  const whole = tryParse(text.trim());
  if (isObject(whole)) return whole;
  const fence = /```[\w-]*\s*\n?([\s\S]*?)```/.exec(text);
  const fenced = fence ? tryParse((fence[1] ?? '').trim()) : undefined;
  if (isObject(fenced)) return fenced;
  let from = text.indexOf('{');
  for (let tries = 0; from !== -1 && tries < 20; tries++) {
    const end = balancedEnd(text, from);
    if (end === -1) return undefined;
    const candidate = tryParse(text.slice(from, end + 1));
    if (isObject(candidate)) return candidate;
    from = text.indexOf('{', from + 1);
  }
  return undefined;
}

/** The index of the `}` closing the `{` at `start`, skipping strings; -1 if none. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return index;
  }
  return -1;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
