import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ExampleSource } from '@agentchart/cli';

const EXAMPLES = fileURLToPath(new URL('../examples/', import.meta.url));
const DEMO = fileURLToPath(new URL('../demo.ts', import.meta.url));

/** The names `pnpm example <name>` knows, plus `demo`. */
export function exampleNames(): string[] {
  return [
    'demo',
    ...readdirSync(EXAMPLES)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => file.slice(0, -3)),
  ].sort();
}

/**
 * The module URL of an example name (`research-rules`, `demo`) or of a
 * script path; `undefined` when it is neither.
 */
export function resolveModule(target: string): string | undefined {
  const example = exampleUrl(target);
  if (example !== undefined) return example;
  const path = resolve(target);
  if (/\.(ts|mts|js|mjs)$/.test(path) && existsSync(path)) return pathToFileURL(path).href;
  return undefined;
}

function exampleUrl(name: string): string | undefined {
  if (name === 'demo') return pathToFileURL(DEMO).href;
  const example = `${EXAMPLES}${name}.ts`;
  return /^[\w-]+$/.test(name) && existsSync(example) ? pathToFileURL(example).href : undefined;
}

/** The examples, by name, for the CLI (`agentchart record research-rules`). */
export const exampleSource: ExampleSource = { names: exampleNames, resolve: exampleUrl };
