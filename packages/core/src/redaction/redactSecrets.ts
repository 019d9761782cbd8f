import { setOwn } from '../ownKeys.js';
import { isSecretKeyName } from './secretKeyNames.js';
import { registeredSecrets } from './secretRegistry.js';
import { redactSecretAssignments } from './secretAssignments.js';
import { redactSecretShapes } from './secretShapes.js';

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/** Extra values and key names for one redaction, beside the registered ones. */
export interface RedactionOptions {
  /** Exact values to replace (any length), e.g. the credentials of one request. */
  secrets?: readonly string[];
  /** Extra key names whose values are secrets (compared without case). */
  secretKeys?: readonly string[];
}

/**
 * Redacts a string: registered credential values (and `options.secrets`)
 * wherever they appear, then well-known token shapes (`sk-…`, `ghp_…`, JWTs,
 * `Bearer …`, PEM private keys, …), then the values of secret-named
 * assignments inside the text (`"apiKey":"…"`, `password=…`, `pin: …`). No I/O; shared by traces, the inspector
 * bridge, the live view and error messages.
 *
 * @example
 * redactText('401: Incorrect API key provided: sk-proj-abcdefghijklmnop'); // '401: Incorrect API key provided: [redacted]'
 */
export function redactText(text: string, options: RedactionOptions = {}): string {
  return redactSecretAssignments(redactSecretShapes(redactKnownSecrets(text, options.secrets), REDACTED), REDACTED);
}

/**
 * Replaces only exact credential values: the registered ones and `extra`
 * (longest first, so a value containing another goes whole). For data a
 * program still reads, such as an API's response, where token shapes and
 * secret-named fields may be the very data asked for.
 *
 * @example
 * redactKnownSecrets('echo: my-api-key-123', ['my-api-key-123']); // 'echo: [redacted]'
 */
export function redactKnownSecrets(text: string, extra: readonly string[] = []): string {
  let out = text;
  const values = extra.length === 0 ? registeredSecrets() : [...extra, ...registeredSecrets()].sort((a, b) => b.length - a.length);
  for (const secret of values) if (secret !== '' && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Whether a key names a secret, by the built-in patterns or `options.secretKeys`.
 *
 * @example
 * isSecretKey('x-api-key'); // true
 */
export function isSecretKey(key: string, options: RedactionOptions = {}): boolean {
  return isSecretKeyName(key) || (options.secretKeys?.some((name) => name.toLowerCase() === key.toLowerCase()) ?? false);
}

/**
 * A copy of a JSON-like value with every secret redacted: values under secret
 * key names (except booleans and null, which hold no secret) and secrets
 * inside any string. Keys stay own keys (`__proto__` included); cycles become
 * `[circular]`. Plain objects, arrays, Maps (as objects) and Errors are
 * copied; other class instances and Dates are kept as they are.
 *
 * @example
 * redactValue({ headers: { Authorization: 'Bearer abc.def.ghi' }, note: 'key sk-abcdefghijklmnop1234' });
 * // { headers: { Authorization: '[redacted]' }, note: 'key [redacted]' }
 */
export function redactValue<T>(value: T, options: RedactionOptions = {}): T {
  return walk(value, options, new Set()) as T;
}

function walk(value: unknown, options: RedactionOptions, seen: Set<object>): unknown {
  if (typeof value === 'string') return redactText(value, options);
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => walk(item, options, seen));
    const prototype = Object.getPrototypeOf(value) as object | null;
    const plain = prototype === null || prototype === Object.prototype || value instanceof Map || value instanceof Error;
    if (!plain) return value;
    if (value instanceof Error) {
      const copy = new (value.constructor as ErrorConstructor)(redactText(value.message, options));
      for (const key of Object.keys(value)) setOwn(copy, key, redactEntry(key, (value as unknown as Record<string, unknown>)[key], options, seen));
      return copy;
    }
    const out: Record<string, unknown> = {};
    const entries = value instanceof Map ? [...value.entries()].map(([key, item]) => [String(key), item] as const) : Object.entries(value);
    for (const [key, item] of entries) setOwn(out, key, redactEntry(key, item, options, seen));
    return out;
  } finally {
    seen.delete(value);
  }
}

function redactEntry(key: string, item: unknown, options: RedactionOptions, seen: Set<object>): unknown {
  if (isSecretKey(key, options) && item !== null && item !== undefined && typeof item !== 'boolean') return REDACTED;
  return walk(item, options, seen);
}
