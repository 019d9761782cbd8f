#!/usr/bin/env node
// The agentchart CLI. The workspace ships TypeScript source, so tsx loads it.
import { register } from 'tsx/esm/api';

register();
// Durable chats (worker, enqueue, status, approve, …) live in @agentchart/dbos.
const dbos = await import('../src/cli/dbosCommands.ts');
if (!(await dbos.ranDbosCommand(process.argv.slice(2)))) {
  await import(process.argv[2] === 'check-model' ? '../src/cli/checkModel/main.ts' : '../src/cli/main.ts');
}
