import { DEFAULT_DROPPED_KEYS, DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_DEPTH, DEFAULT_MAX_STRING_LENGTH, REDACTED } from '../constants.js';
import { redactText } from '@agentchart/core';
import { MAX_EXPORTED_NAME_LENGTH, cutText, isSecretKeyName, setOwn } from '@agentchart/core/internal';

/** How values are trimmed before they leave the process. */
export interface SanitizeOptions {
  /** Longer strings are cut, with a note of how much was cut (default 2000). */
  maxStringLength?: number;
  /**
   * Strings under the keys `name` and `toolName` (a tool call's name, which
   * the model writes; an agent's, a message's) are cut at this length
   * (default 128: no valid tool name is cut).
   */
  maxNameLength?: number;
  /** Longer arrays keep their last items, after a note of how many were left out (default 30). */
  maxArrayItems?: number;
  /** Deeper objects become a marker (default 12). */
  maxDepth?: number;
  /** Keys dropped wherever they appear (default `['runtime']`: models and tools are code). */
  dropKeys?: readonly string[];
  /** Extra secret keys, beside the built-in ones (apiKey, authorization, token, …). */
  secretKeys?: readonly string[];
}

/** A JSON value: what sanitising returns. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

interface Settings {
  maxStringLength: number;
  maxNameLength: number;
  maxArrayItems: number;
  maxDepth: number;
  dropKeys: ReadonlySet<string>;
  secretKeys: ReadonlySet<string>;
  /** Results per object and depth, kept by `createSanitizer` across calls. */
  cache: WeakMap<object, { depth: number; value: JsonValue }> | undefined;
}

/** Set while a walk met a cycle: such a result depends on its ancestors and is not cached. */
let metCycle = false;

/**
 * Turns any value into plain JSON that is safe to send out of the process:
 * secrets redacted (by key and by shape), `runtime` dropped, long strings and
 * arrays trimmed, functions and class instances replaced by markers, cycles
 * cut. Sanitising a sanitised value changes nothing.
 *
 * @example
 * sanitizeValue({ apiKey: 'sk-…', messages: longHistory, runtime });
 * // → { apiKey: '[redacted]', messages: ['[… 70 earlier items]', …last 29] }
 */
export function sanitizeValue(value: unknown, options: SanitizeOptions = {}): JsonValue {
  return walk(value, settingsOf(options, undefined), 0, new Set());
}

/**
 * A sanitiser for a stream of values that share parts (the successive
 * snapshots of one actor): it remembers what it made of each object and
 * reuses it, so unchanged messages are not walked again. Values are taken as
 * immutable, as XState contexts and events are.
 *
 * @example
 * const sanitize = createSanitizer({ maxArrayItems: 50 });
 * actor.subscribe((snapshot) => send(sanitize(snapshot.context)));
 */
export function createSanitizer(options: SanitizeOptions = {}): (value: unknown) => JsonValue {
  const settings = settingsOf(options, new WeakMap());
  return (value) => walk(value, settings, 0, new Set());
}

function settingsOf(options: SanitizeOptions, cache: Settings['cache']): Settings {
  return {
    maxStringLength: options.maxStringLength ?? DEFAULT_MAX_STRING_LENGTH,
    maxNameLength: options.maxNameLength ?? MAX_EXPORTED_NAME_LENGTH,
    maxArrayItems: Math.max(2, options.maxArrayItems ?? DEFAULT_MAX_ARRAY_ITEMS),
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
    dropKeys: new Set(options.dropKeys ?? DEFAULT_DROPPED_KEYS),
    secretKeys: new Set((options.secretKeys ?? []).map((key) => key.toLowerCase())),
    cache,
  };
}

/** `fromToJSON`: the value is what a `toJSON()` returned; as in JSON.stringify, its own `toJSON` is not called again. */
function walk(value: unknown, settings: Settings, depth: number, seen: Set<object>, fromToJSON = false): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
      // Redacted before trimming: a credential cut in half would no longer have its shape.
      return cutText(redactText(value), settings.maxStringLength);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
    case 'symbol':
      return value.toString();
    default:
      break;
  }
  const object = value as object;
  if (seen.has(object)) {
    metCycle = true;
    return '[circular]';
  }
  if (depth >= settings.maxDepth) return '[… too deep]';
  const cached = settings.cache?.get(object);
  if (cached !== undefined && cached.depth === depth) return cached.value;
  const outerCycle = metCycle;
  metCycle = false;
  seen.add(object);
  try {
    const result = walkObject(object, settings, depth, seen, fromToJSON);
    if (!metCycle) settings.cache?.set(object, { depth, value: result });
    return result;
  } finally {
    seen.delete(object);
    metCycle ||= outerCycle;
  }
}

function walkObject(object: object, settings: Settings, depth: number, seen: Set<object>, fromToJSON: boolean): JsonValue {
  if (object instanceof Date) return object.toISOString();
  if (object instanceof Error) return { name: object.name, message: cutText(redactText(object.message), settings.maxStringLength) };
  if (Array.isArray(object)) return walkArray(object, settings, depth, seen);
  if (object instanceof Set) return walkArray([...object], settings, depth, seen);
  if (object instanceof Map)
    return walkEntries(
      [...object.entries()].map(([k, v]) => [String(k), v]),
      settings,
      depth,
      seen,
    );
  const withJson = object as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function' && !fromToJSON) return walk(withJson.toJSON(), settings, depth, seen, true);
  const prototype = Object.getPrototypeOf(object) as object | null;
  if (prototype !== null && prototype !== Object.prototype) {
    return `[${(object.constructor as { name?: string } | undefined)?.name || 'object'}]`;
  }
  return walkEntries(Object.entries(object), settings, depth, seen);
}

function walkArray(items: readonly unknown[], settings: Settings, depth: number, seen: Set<object>): JsonValue[] {
  const keep = items.length > settings.maxArrayItems ? settings.maxArrayItems - 1 : items.length;
  const omitted = items.length - keep;
  const kept = items.slice(omitted).map((item) => walk(item, settings, depth + 1, seen));
  if (omitted === 0) return kept;
  const marker = items[0];
  // A marker from an earlier pass counts the items it stands for.
  const earlier = typeof marker === 'string' ? /^\[… (\d+) earlier items\]$/.exec(marker) : null;
  const total = omitted - (earlier ? 1 : 0) + (earlier ? Number(earlier[1]) : 0);
  return [`[… ${total} earlier items]`, ...kept];
}

function walkEntries(entries: [string, unknown][], settings: Settings, depth: number, seen: Set<object>): JsonValue {
  const result: { [key: string]: JsonValue } = {};
  for (const [key, entry] of entries) {
    if (settings.dropKeys.has(key) || typeof entry === 'function' || entry === undefined) continue;
    const secret = (isSecretKeyName(key) || settings.secretKeys.has(key.toLowerCase())) && entry !== null && typeof entry !== 'boolean';
    const name = !secret && typeof entry === 'string' && NAME_KEYS.has(key);
    setOwn(result, key, secret ? REDACTED : name ? cutText(redactText(entry), settings.maxNameLength) : walk(entry, settings, depth + 1, seen));
  }
  return result;
}

/** The keys whose string values are names (cut at `maxNameLength`). */
const NAME_KEYS: ReadonlySet<string> = new Set(['name', 'toolName']);
