import type { ConditionalKey, ConditionalRule } from './toolRuleSchema.js';

/**
 * Whether a tool's returned value matches a conditional key. Equal values
 * match; a boolean key also matches the strings "true"/"false" (any case), a
 * number key a string holding that number ("42" matches 42), and a string key
 * the text form of a number or boolean (the key "true" matches `true`, "42"
 * matches 42). Objects, arrays, `null` and `undefined` match no key.
 *
 * @example
 * matchesConditionalKey('True', true) // true
 * matchesConditionalKey(42, '42')     // true
 * matchesConditionalKey({ ok: true }, 'ok') // false
 */
export function matchesConditionalKey(output: unknown, key: ConditionalKey): boolean {
  if (output === key) return true;
  if (typeof key === 'boolean') return typeof output === 'string' && output.trim().toLowerCase() === String(key);
  if (typeof key === 'number') {
    return typeof output === 'string' && output.trim() !== '' && Number(output.trim()) === key;
  }
  return (typeof output === 'number' || typeof output === 'boolean') && String(output) === key;
}

/** The outcome of matching a conditional tool's output against its rule. */
export type ConditionalMatch =
  | { kind: 'case'; next: string; index: number }
  | { kind: 'default'; next: string }
  | { kind: 'open' }
  | { kind: 'unmatched' };

/**
 * Picks the next tool for a conditional tool's output: the first matching
 * case, else the default child, else any tool — or `unmatched` when the rule
 * has `requireMatch`.
 */
export function matchConditionalOutput(rule: ConditionalRule, output: unknown): ConditionalMatch {
  const index = rule.cases.findIndex((entry) => matchesConditionalKey(output, entry.when));
  const matched = rule.cases[index];
  if (matched) return { kind: 'case', next: matched.then, index };
  if (rule.defaultChild !== undefined) return { kind: 'default', next: rule.defaultChild };
  return rule.requireMatch ? { kind: 'unmatched' } : { kind: 'open' };
}
