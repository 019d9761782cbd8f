/** `agentchart ag-ui ...`: the entry point the CLI's bin imports for the `ag-ui` command (the command lives in @agentchart/ag-ui/cli). */
import { agUiCommand } from '@agentchart/ag-ui/cli';

try {
  const listener = await agUiCommand(process.argv.slice(3));
  if (listener !== undefined) {
    const stop = () => void listener.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
} catch (error) {
  console.error(`agentchart: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
