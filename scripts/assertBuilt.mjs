#!/usr/bin/env node
// A package's `prepack`: refuses to pack a package whose dist/ is missing or
// older than its sources, so a tarball never ships without its JavaScript.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);

// tsc -b rewrites its build info on every build that finds something changed (the JavaScript only for changed files).
const built = join(process.cwd(), 'dist/tsconfig.build.tsbuildinfo');
if (!existsSync(built) || newest(join(process.cwd(), 'src')) > statSync(built).mtimeMs) {
  console.error(`${process.cwd()}: dist/ is missing or older than src/. Build first: npx pnpm@12.4.2 build`);
  process.exit(1);
}
