#!/usr/bin/env node
// The agentchart CLI. The workspace ships TypeScript source, so tsx loads it.
import { register } from 'tsx/esm/api';

register();
// `agentchart mcp ...` parses its own arguments (src/cli/mcpMain.ts).
await import(process.argv[2] === 'mcp' ? '../src/cli/mcpMain.ts' : '../src/cli/main.ts');
