#!/usr/bin/env node
// The agentchart CLI. The workspace ships TypeScript source, so tsx loads it.
import { register } from 'tsx/esm/api';

register();
// Durable chats (worker, enqueue, status, approve, …) live in @agentchart/dbos;
// `agentchart mcp ...`, `agentchart a2a ...`, `agentchart ag-ui ...` and `agentchart check-model ...` parse their own arguments.
const dbos = await import('../src/cli/dbosCommands.ts');
if (!(await dbos.ranDbosCommand(process.argv.slice(2)))) {
  const entries = {
    mcp: '../src/cli/mcpMain.ts',
    a2a: '../src/cli/a2aMain.ts',
    'ag-ui': '../src/cli/agUiMain.ts',
    'check-model': '../src/cli/checkModel/main.ts',
  };
  const command = process.argv[2];
  await import(command !== undefined && Object.hasOwn(entries, command) ? entries[command] : '../src/cli/main.ts');
}
