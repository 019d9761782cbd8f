#!/usr/bin/env node
// Builds every publishable package and packs each into one folder (default
// ./packs), for installing agentchart from a clone before it is on the npm
// registry:  node scripts/packLocal.mjs [folder]   (root script: pack:local)
// then, in your project:  npm install <folder>/*.tgz
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { publishablePackageDirs } from './build.mjs';

const root = resolve(import.meta.dirname, '..');
const folder = resolve(process.argv[2] ?? join(root, 'packs'));

execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--clean'], { stdio: 'inherit' });
rmSync(folder, { recursive: true, force: true });
mkdirSync(folder, { recursive: true });
for (const dir of publishablePackageDirs()) {
  execFileSync('npx', ['--yes', 'pnpm@12.4.2', 'pack', '--pack-destination', folder], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}
const tarballs = readdirSync(folder).filter((file) => file.endsWith('.tgz'));
const shown = relative(process.cwd(), folder) || '.';
console.log(
  `${tarballs.length} packages packed into ${shown}:\n  ${tarballs.join('\n  ')}\n\nIn your project: npm install ${join(shown, '*.tgz')} zod`,
);
