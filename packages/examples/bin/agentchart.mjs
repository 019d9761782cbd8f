#!/usr/bin/env node
// `npx pnpm@12.4.2 agentchart …` in the workspace: the CLI's TypeScript source
// (through tsx), with the examples known by name (`agentchart record demo`).
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('@agentchart/cli');
const { exampleSource } = await import('../src/cli/exampleModules.ts');
process.exitCode = await runCli(process.argv.slice(2), { examples: exampleSource, loadsTypeScript: true });
