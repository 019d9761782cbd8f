/**
 * Runs one example: `pnpm example <name>` runs src/examples/<name>.ts.
 * Without a name, lists the examples.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const folder = fileURLToPath(new URL('./examples/', import.meta.url));
const available = readdirSync(folder)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -'.ts'.length))
  .sort();
const name = process.argv[2];

if (name === undefined || !available.includes(name)) {
  if (name !== undefined) console.error(`No example named "${name}".`);
  console.log(`Usage: pnpm example <name>\nExamples: ${available.join(', ')}`);
  process.exitCode = name === undefined ? 0 : 1;
} else {
  await import(pathToFileURL(`${folder}${name}.ts`).href);
}
