#!/usr/bin/env node
// Builds every publishable package to its dist/: `tsc -b tsconfig.build.json`
// (ESM JavaScript, .d.ts with declaration maps, source maps), then copies the
// files under src/ that are not TypeScript (the live view's page) next to the
// JavaScript that reads them. The packages are the references of
// tsconfig.build.json. `--clean` removes every dist/ first.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The directories of the publishable packages, from tsconfig.build.json's references. */
export function publishablePackageDirs() {
  const solution = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  return solution.references.map((reference) => dirname(join(root, reference.path)));
}

function nonTypeScriptFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return nonTypeScriptFiles(path);
    return name.endsWith('.ts') ? [] : [path];
  });
}

function build({ clean }) {
  const packages = publishablePackageDirs();
  if (clean) for (const dir of packages) rmSync(join(dir, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  for (const dir of packages) {
    for (const file of nonTypeScriptFiles(join(dir, 'src'))) {
      cpSync(file, join(dir, 'dist', relative(join(dir, 'src'), file)));
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build({ clean: process.argv.includes('--clean') });
