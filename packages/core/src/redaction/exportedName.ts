import { MAX_EXPORTED_NAME_LENGTH } from '../constants.js';
import { redactText } from './redactSecrets.js';

/**
 * A name as it may leave the process: secrets redacted (`redactText`), then
 * cut to `maxLength` characters with a note of how many were cut. For names
 * the model wrote (the tool it called, a call id) wherever they are exported:
 * span names and attributes, traces, the live view, error messages.
 *
 * @example
 * exportedName(`steal_${apiKey}`); // 'steal_[redacted]'
 * exportedName('x'.repeat(200)); // 'xxx…x…[+72 characters]' (128 x, then the note)
 */
export function exportedName(name: string, maxLength: number = MAX_EXPORTED_NAME_LENGTH): string {
  return cutText(redactText(name), maxLength);
}

/**
 * `text` cut to `maxLength` characters, followed by `…[+N characters]` when
 * it was longer (a text already cut so is left as it is).
 *
 * @example
 * cutText('abcdef', 3); // 'abc…[+3 characters]'
 */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const note = CUT_NOTE.exec(text);
  if (note && text.length - note[0].length <= maxLength) return text;
  return `${text.slice(0, maxLength)}…[+${text.length - maxLength} characters]`;
}

const CUT_NOTE = /…\[\+\d+ characters\]$/;
