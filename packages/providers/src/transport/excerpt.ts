import { EXCERPT_CHARS } from '../constants.js';

/**
 * The start of a text for an error message: at most `EXCERPT_CHARS`
 * characters, control characters escaped, with how much was left out.
 *
 * @example
 * excerpt('<html>' + 'x'.repeat(500)); // '"<html>xxx…" (+306 more characters)'
 */
export function excerpt(text: string): string {
  const head = JSON.stringify(text.slice(0, EXCERPT_CHARS));
  return text.length > EXCERPT_CHARS ? `${head.slice(0, -1)}…" (+${text.length - EXCERPT_CHARS} more characters)` : head;
}
