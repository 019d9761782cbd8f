import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ExampleSource } from '../command.js';

const SCRIPT = /\.(ts|mts|cts|js|mjs|cjs)$/;

/**
 * The module URL of a script path (relative to the working directory) or of
 * an example's name; `undefined` when it is neither.
 *
 * @example
 * resolveScript('./app.mjs', undefined); // 'file:///home/me/app/app.mjs'
 */
export function resolveScript(target: string, examples: ExampleSource | undefined): string | undefined {
  const example = /^[\w-]+$/.test(target) ? examples?.resolve(target) : undefined;
  if (example !== undefined) return example;
  const path = resolve(target);
  return SCRIPT.test(path) && existsSync(path) ? pathToFileURL(path).href : undefined;
}

/** What to say when a target is not a script: the names of the examples too, when there are some. */
export function notAScript(target: string, what: string, examples: ExampleSource | undefined): string {
  const known = examples === undefined ? '' : ` (examples: ${examples.names().join(', ')})`;
  return `"${target}" is not ${what}: give a script path (.mjs, .js, .ts)${examples === undefined ? '' : ' or an example name'}${known}.`;
}
