import { parseCommandArgs } from '../args/parseCommandArgs.js';
import { type Command, showHelp } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

const USAGE = `Usage: agentchart trace <trace.ndjson> [--verbose]

Prints a trace (from agentchart record, or a trace sink) as a timeline.
--verbose  every event, with its details`;

/** `agentchart trace`. */
export const trace: Command = {
  async run(args) {
    const parsed = parseCommandArgs(args, {
      command: 'agentchart trace',
      options: { verbose: { type: 'boolean' } },
      positionals: { min: 1, max: 1, missing: 'a trace file (.ndjson)' },
    });
    if (parsed === 'help') return showHelp(USAGE);
    const { traceCommand } = await loadOptional(() => import('../trace/traceCommands.js'), '@agentchart/inspect', 'agentchart trace');
    await traceCommand(parsed.positionals[0] as string, { verbose: parsed.values.verbose === true });
    return EXIT.ok;
  },
};
