import { parseCommandArgs } from '../args/parseCommandArgs.js';
import { type Command, showHelp } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

const USAGE = `Usage: agentchart diagram <file|script> [--format mermaid|svg|json] [--machine KEY] [--out PATH]

Draws the machines a file holds: a trace (.ndjson), tool rules or an XState config (.json),
or a script (the machines of the runs it starts and of what it exports).
--format   mermaid (default), svg or json
--machine  only the machine with this key (agent, toolRules, speakers, …)
--out      a file, or a folder with one file per machine`;

/** `agentchart diagram`. */
export const diagram: Command = {
  async run(args, context) {
    const parsed = parseCommandArgs(args, {
      command: 'agentchart diagram',
      options: { format: { type: 'string' }, machine: { type: 'string' }, out: { type: 'string', short: 'o' } },
      positionals: { min: 1, max: 1, missing: 'a file or a script' },
    });
    if (parsed === 'help') return showHelp(USAGE);
    const { diagramCommand } = await loadOptional(() => import('../diagram/diagramCommand.js'), '@agentchart/inspect', 'agentchart diagram');
    const text = (name: string) => (typeof parsed.values[name] === 'string' ? (parsed.values[name] as string) : undefined);
    await diagramCommand(parsed.positionals[0] as string, { format: text('format'), machine: text('machine'), out: text('out') }, context);
    return EXIT.ok;
  },
};
