import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

/** `agentchart ag-ui serve …`: run by `@agentchart/ag-ui/cli` (it answers `--help`), loaded when asked for; serves until SIGINT or SIGTERM. */
export const agUi: Command = {
  async run(args) {
    const cli = await loadOptional(() => import('@agentchart/ag-ui/cli'), '@agentchart/ag-ui', 'agentchart ag-ui');
    const listener = await cli.agUiCommand(args);
    if (listener !== undefined) {
      const stop = () => void listener.close().then(() => process.exit(EXIT.ok));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }
    return EXIT.ok;
  },
};
