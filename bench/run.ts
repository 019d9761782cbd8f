/**
 * `pnpm bench`: runs every benchmark in this folder and prints its figures.
 * A benchmark is a module `bench/<name>.bench.ts` exporting
 * `runBenchmark(): Promise<void>` that prints its own lines. Run some with
 * `pnpm bench <name> [<name> …]`. Figures are printed, never asserted.
 *
 * Each benchmark is bundled with esbuild into plain JavaScript and run in its
 * own `node --expose-gc` process: what is measured is the code users run
 * (not a transpile-on-load loader's helpers), and one benchmark's heap does
 * not colour the next one's.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, '.out');
const only = process.argv.slice(2);
const all = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();
const usage = `Usage: npx pnpm@12.4.2 bench [<name> …]   (a name may be a prefix)\nBenchmarks: ${all.join(', ')}`;
if (only.includes('--help') || only.includes('-h')) {
  console.log(usage);
  process.exit(0);
}
const unknown = only.filter((wanted) => wanted.startsWith('-') || !all.some((name) => name.startsWith(wanted)));
if (unknown.length > 0) {
  console.error(`bench: no benchmark named ${unknown.map((name) => `"${name}"`).join(', ')}.\n\n${usage}`);
  process.exit(1);
}
const names = all.filter((name) => only.length === 0 || only.some((wanted) => name.startsWith(wanted)));

mkdirSync(outDir, { recursive: true });
let failed = 0;
for (const name of names) {
  console.log(`\n## ${name}`);
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    stdin: { contents: `import { runBenchmark } from './${name}.bench.ts';\nawait runBenchmark();\n`, resolveDir: here, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    // Database drivers load native code or optional peers at run time: resolved from node_modules, not bundled.
    external: ['@libsql/client', 'libsql', 'pg', 'pg-native', '@dbos-inc/dbos-sdk'],
    // Bundled CommonJS dependencies still call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const run = spawnSync(process.execPath, ['--expose-gc', outfile], { stdio: 'inherit', cwd: join(here, '..') });
  if (run.status !== 0) {
    failed += 1;
    console.log(`(benchmark ${name} failed with exit code ${run.status})`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
