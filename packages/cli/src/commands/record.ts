import { parseCommandArgs } from '../args/parseCommandArgs.js';
import { type Command, showHelp } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

const USAGE = `Usage: agentchart record <script> [--out FILE]

Runs a script (.mjs, .js, or .ts with tsx installed) and writes the trace of every agent run
and group chat it starts; fails when it started none.
--out  the trace file (default: <script>.trace.ndjson)`;

/** `agentchart record`. */
export const record: Command = {
  async run(args, context) {
    const parsed = parseCommandArgs(args, {
      command: 'agentchart record',
      options: { out: { type: 'string', short: 'o' } },
      positionals: { min: 1, max: 1, missing: 'a script' },
    });
    if (parsed === 'help') return showHelp(USAGE);
    const { recordCommand } = await loadOptional(() => import('../trace/traceCommands.js'), '@agentchart/inspect', 'agentchart record');
    const out = typeof parsed.values.out === 'string' ? parsed.values.out : undefined;
    await recordCommand(parsed.positionals[0] as string, { out }, context);
    return EXIT.ok;
  },
};
