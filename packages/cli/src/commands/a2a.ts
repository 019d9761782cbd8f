import type { Command } from '../command.js';
import { loadOptional } from '../loadOptional.js';

/** `agentchart a2a serve …`: run by `@agentchart/a2a/cli` (it answers `--help`), loaded when asked for; `--store` keeps tasks in SQLite. */
export const a2a: Command = {
  async run(args) {
    const cli = await loadOptional(() => import('@agentchart/a2a/cli'), '@agentchart/a2a', 'agentchart a2a');
    const { createSqliteRunStore } = await loadOptional(() => import('@agentchart/store/sqlite'), '@agentchart/store', 'agentchart a2a serve');
    return cli.serveA2aCommand(args, { openStore: (path) => createSqliteRunStore({ path }) });
  },
};
