import { RE2JS } from 're2js';

/** What ajv's `code.regExp` takes. */
type RegExpEngine = { (pattern: string, flags: string): { test(text: string): boolean }; code: string };

/**
 * The regular-expression engine JSON Schema `pattern` and
 * `patternProperties` run on: RE2 (linear time, no backtracking), so a
 * server's `^(a+)+$` cannot freeze the process while arguments are checked.
 * A pattern RE2 cannot compile (back-references, look-around) makes the
 * schema invalid.
 *
 * @example
 * linearRegExp('^(a+)+$', 'u').test('a'.repeat(50) + 'b'); // false, at once
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string, _flags: string) => {
    const compiled = RE2JS.compile(pattern);
    return { test: (text: string) => compiled.test(text) };
  },
  { code: 'linearRegExp' },
);
