/**
 * `agentchart`: diagrams, traces and the live view from the command line.
 *
 *   agentchart diagram <file|example> [--format mermaid|svg|json] [--machine KEY] [--out PATH]
 *   agentchart trace <trace.ndjson> [--verbose]
 *   agentchart record <example|script> [--out FILE]
 *   agentchart view <trace.ndjson|example> [--port N] [--speed N] [--now]
 */
import { parseArgs } from 'node:util';
import { diagramCommand } from './diagramCommand.js';
import { recordCommand, traceCommand } from './traceCommands.js';
import { viewCommand } from './viewCommand.js';
import { exampleNames } from './exampleModules.js';

const USAGE = `Usage:
  agentchart diagram <file|example> [--format mermaid|svg|json] [--machine KEY] [--out PATH]
  agentchart trace <trace.ndjson> [--verbose]
  agentchart record <example|script> [--out FILE]
  agentchart view <trace.ndjson|example> [--port N] [--speed N] [--now]
  agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]

Examples: ${exampleNames().join(', ')}`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    format: { type: 'string', default: 'mermaid' },
    machine: { type: 'string' },
    out: { type: 'string', short: 'o' },
    verbose: { type: 'boolean', default: false },
    port: { type: 'string' },
    speed: { type: 'string' },
    now: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const [command, target] = positionals;
try {
  if (values.help || command === undefined) {
    console.log(USAGE);
  } else if (target === undefined) {
    throw new Error(`agentchart ${command} needs a file or an example name.\n\n${USAGE}`);
  } else if (command === 'diagram') {
    await diagramCommand(target, { format: values.format, machine: values.machine, out: values.out });
  } else if (command === 'trace') {
    await traceCommand(target, { verbose: values.verbose });
  } else if (command === 'record') {
    await recordCommand(target, { out: values.out });
  } else if (command === 'view') {
    await viewCommand(target, { port: values.port, speed: values.speed, now: values.now });
  } else {
    throw new Error(`Unknown command "${command}".\n\n${USAGE}`);
  }
} catch (error) {
  console.error(`agentchart: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
