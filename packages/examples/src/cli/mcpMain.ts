/** `agentchart mcp ...`: the entry point the CLI's bin imports for the `mcp` command (see mcpCommand.ts). */
import { mcpCommand } from './mcpCommand.js';

try {
  await mcpCommand(process.argv.slice(3));
} catch (error) {
  console.error(`agentchart: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
