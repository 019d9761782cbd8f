/** `agentchart a2a ...`: the entry point the CLI's bin imports for the `a2a` command (the command is `serveA2aCommand` of @agentchart/a2a/cli). */
import { serveA2aCommand } from '@agentchart/a2a/cli';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { useCallerCwd } from './callerCwd.js';

useCallerCwd(['agentchart']);
try {
  process.exitCode = await serveA2aCommand(process.argv.slice(3), { openStore: (path) => createSqliteRunStore({ path }) });
} catch (error) {
  console.error(`agentchart: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
