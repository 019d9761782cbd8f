/**
 * `pnpm bench`: runs every benchmark in this folder and prints its figures.
 * A benchmark is a module `bench/<name>.bench.ts` exporting
 * `runBenchmark(): Promise<void>` that prints its own lines. Run one with
 * `pnpm bench <name>`. Figures are printed, never asserted.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

for (const file of files) {
  console.log(`\n## ${file.replace('.bench.ts', '')}`);
  const module = (await import(pathToFileURL(join(here, file)).href)) as { runBenchmark: () => Promise<void> };
  await module.runBenchmark();
}
