import { usageErrorFrom } from '../args/parseCommandArgs.js';
import { UsageError } from '../cliErrors.js';
import type { Command } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

/** The options every durable-chat command takes, beside those its usage line names. */
const COMMON_OPTIONS = ['database', 'queue', 'help'];

/**
 * A durable-chat command (`worker`, `enqueue`, `status`, `approve`, …): run by
 * `@agentchart/dbos/cli`, loaded when one is asked for. `--help` prints the
 * command's line of that package's usage.
 *
 * @example
 * process.exitCode = await durableCommand('status').run(['chat_1'], context);
 */
export function durableCommand(name: string): Command {
  return {
    async run(args) {
      const dbos = await loadOptional(() => import('@agentchart/dbos/cli'), '@agentchart/dbos', `agentchart ${name}`);
      const usage = dbos.DBOS_USAGE.split('\n').find((line) => line.trim().startsWith(`agentchart ${name} `) || line.trim() === `agentchart ${name}`);
      if (args.includes('--help') || args.includes('-h')) {
        process.stdout.write(`Usage: ${usage?.trim() ?? `agentchart ${name}`}\n\n${dbos.DBOS_USAGE}\n`);
        return EXIT.ok;
      }
      try {
        return await dbos.runDbosCommand([name, ...args]);
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('Usage:')) throw new UsageError(`agentchart ${name}: ${error.message}`);
        const known = [...new Set([...(usage ?? '').matchAll(/--([\w-]+)/g)].map((match) => match[1] as string))];
        throw usageErrorFrom(error, `agentchart ${name}`, [...known, ...COMMON_OPTIONS]);
      }
    },
  };
}
