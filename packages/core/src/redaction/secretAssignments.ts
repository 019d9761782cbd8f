import { isSecretKeyName } from './secretKeyNames.js';

/**
 * `"name": "value"` and `name=value` inside text — JSON that was turned into
 * a string (a tool result), query strings, `.env` lines — whose name is a
 * secret key name: the value is replaced, the name stays. An unquoted value
 * after a colon is left (it is prose as often as not).
 */
const ASSIGNMENT = /(["']?)([A-Za-z][A-Za-z0-9_.-]{1,63})\1(\s*[:=]\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s,;&"'}\]]+)/g;
const HARMLESS = new Set(['true', 'false', 'null', '""', "''", '[redacted]', '"[redacted]"']);

/**
 * Replaces the values of secret-named assignments inside `text`.
 *
 * @example
 * redactSecretAssignments('{"openaiKey":"abc123xyz","city":"Oslo"}', '[redacted]');
 * // '{"openaiKey":"[redacted]","city":"Oslo"}'
 */
export function redactSecretAssignments(text: string, replacement: string): string {
  if (!/[:=]/.test(text)) return text;
  return text.replace(ASSIGNMENT, (match, quote: string, name: string, separator: string, value: string) => {
    if (!isSecretKeyName(name) || HARMLESS.has(value)) return match;
    // `name: word` is prose as often as not ("password: Expected string"); JSON quotes its values.
    if (separator.includes(':') && !/^["']/.test(value)) return match;
    const quoted = value.startsWith('"') ? `"${replacement}"` : value.startsWith("'") ? `'${replacement}'` : replacement;
    return `${quote}${name}${quote}${separator}${quoted}`;
  });
}
