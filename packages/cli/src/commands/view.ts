import { parseCommandArgs } from '../args/parseCommandArgs.js';
import { type Command, showHelp } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

const USAGE = `Usage: agentchart view <trace.ndjson|script> [--port N] [--speed N] [--now]

Serves the live view on 127.0.0.1 and plays a trace, or runs a script, once the page is open.
--port   the port (default: a free one)
--speed  the replay's pace factor; 0 shows the whole trace at once (default 1)
--now    start at once instead of waiting for the page`;

/** `agentchart view`: runs until interrupted. */
export const view: Command = {
  async run(args, context) {
    const parsed = parseCommandArgs(args, {
      command: 'agentchart view',
      options: { port: { type: 'string' }, speed: { type: 'string' }, now: { type: 'boolean' } },
      positionals: { min: 1, max: 1, missing: 'a trace file (.ndjson) or a script' },
    });
    if (parsed === 'help') return showHelp(USAGE);
    const { viewCommand } = await loadOptional(() => import('../view/viewCommand.js'), '@agentchart/inspect', 'agentchart view');
    const text = (name: string) => (typeof parsed.values[name] === 'string' ? (parsed.values[name] as string) : undefined);
    await viewCommand(parsed.positionals[0] as string, { port: text('port'), speed: text('speed'), now: parsed.values.now === true }, context);
    return EXIT.ok;
  },
};
