#!/usr/bin/env node
// The agentchart CLI. The workspace ships TypeScript source, so tsx loads it.
import { register } from 'tsx/esm/api';

register();
// `agentchart mcp ...` and `agentchart check-model ...` parse their own arguments.
const entries = { mcp: '../src/cli/mcpMain.ts', 'check-model': '../src/cli/checkModel/main.ts' };
const command = process.argv[2];
await import(command !== undefined && Object.hasOwn(entries, command) ? entries[command] : '../src/cli/main.ts');
