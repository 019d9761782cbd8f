/**
 * `agentchart check-model …`: its own entry, so its flags stay apart from
 * the other commands' (bin/agentchart.mjs sends `check-model` here).
 */
import { checkModelCommand } from './checkModelCommand.js';

try {
  process.exitCode = await checkModelCommand(process.argv.slice(3));
} catch (error) {
  console.error(`agentchart check-model: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
