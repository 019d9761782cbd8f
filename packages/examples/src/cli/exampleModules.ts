import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
  if (target === 'demo') return pathToFileURL(DEMO).href;
  const example = `${EXAMPLES}${target}.ts`;
  if (/^[\w-]+$/.test(target) && existsSync(example)) return pathToFileURL(example).href;
  const path = resolve(target);
  if (/\.(ts|mts|js|mjs)$/.test(path) && existsSync(path)) return pathToFileURL(path).href;
  return undefined;
}
