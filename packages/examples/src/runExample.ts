/**
 * Runs one example: `pnpm example <name>` runs src/examples/<name>.ts (or the
 * demo). Without a name, lists the examples.
 */
import { exampleNames, resolveModule } from './cli/exampleModules.js';

const name = process.argv[2];
const moduleUrl = name !== undefined && /^[\w-]+$/.test(name) ? resolveModule(name) : undefined;

if (moduleUrl === undefined) {
  if (name !== undefined) console.error(`No example named "${name}".`);
  console.log(`Usage: pnpm example <name>\nExamples: ${exampleNames().join(', ')}`);
  process.exitCode = name === undefined ? 0 : 1;
} else {
  await import(moduleUrl);
}
