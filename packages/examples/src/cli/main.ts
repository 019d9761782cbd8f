/**
 * `agentchart`: diagrams, traces and the live view from the command line.
 *
 *   agentchart diagram <file|example> [--format mermaid|svg|json] [--machine KEY] [--out PATH]
 *   agentchart trace <trace.ndjson> [--verbose]
 *   agentchart record <example|script> [--out FILE]
 *   agentchart view <trace.ndjson|example> [--port N] [--speed N] [--now]
 *
 * An unknown command or flag prints the usage and exits 1; `--help` works on
 * every command. Relative paths resolve from the caller's directory.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { useCallerCwd } from './callerCwd.js';
import { diagramCommand } from './diagramCommand.js';
import { exampleNames } from './exampleModules.js';
import { recordCommand, traceCommand } from './traceCommands.js';
import { viewCommand } from './viewCommand.js';

type Options = NonNullable<ParseArgsConfig['options']>;

const help: Options = { help: { type: 'boolean', short: 'h', default: false } };

const COMMANDS = {
  diagram: {
    usage: 'agentchart diagram <file|example> [--format mermaid|svg|json] [--machine KEY] [--out PATH]',
    options: { format: { type: 'string', default: 'mermaid' }, machine: { type: 'string' }, out: { type: 'string', short: 'o' } },
  },
  trace: { usage: 'agentchart trace <trace.ndjson> [--verbose]', options: { verbose: { type: 'boolean', default: false } } },
  record: { usage: 'agentchart record <example|script> [--out FILE]', options: { out: { type: 'string', short: 'o' } } },
  view: {
    usage: 'agentchart view <trace.ndjson|example> [--port N] [--speed N] [--now]',
    options: { port: { type: 'string' }, speed: { type: 'string' }, now: { type: 'boolean', default: false } },
  },
} satisfies Record<string, { usage: string; options: Options }>;

type Command = keyof typeof COMMANDS;

const isCommand = (name: string | undefined): name is Command => name !== undefined && Object.hasOwn(COMMANDS, name);

const usage = (command?: Command) =>
  command === undefined
    ? `Usage:\n${Object.values(COMMANDS)
        .map((entry) => `  ${entry.usage}`)
        .join(
          '\n',
        )}\n  agentchart check-model --provider ollama|openai --model <name> …\n  agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]\n  agentchart a2a serve --module <file> [--port N] [--host 127.0.0.1] [--store <sqlite file>]\n  agentchart ag-ui serve --module <file> [--port N] [--host 127.0.0.1]\n  agentchart worker|enqueue|status|events|approve|reject|say|select|record-result|recover … (durable chats on DBOS)\n  agentchart <command> --help\n\nExamples: ${exampleNames().join(', ')}`
    : `Usage: ${COMMANDS[command].usage}\n\nExamples: ${exampleNames().join(', ')}`;

class UsageError extends Error {}

async function main(args: string[]): Promise<void> {
  const command = args[0];
  if (command === undefined || command === '--help' || command === '-h') return void console.log(usage());
  if (!isCommand(command)) {
    throw new UsageError(`${command.startsWith('-') ? `Unknown option '${command}'` : `Unknown command "${command}"`}.\n\n${usage()}`);
  }
  let parsed: { positionals: string[]; values: Record<string, unknown> };
  try {
    parsed = parseArgs({ args: args.slice(1), allowPositionals: true, strict: true, options: { ...help, ...COMMANDS[command].options } });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n\n${usage(command)}`);
  }
  const { positionals, values } = parsed;
  if (values.help) return void console.log(usage(command));
  const [target, ...extra] = positionals;
  if (target === undefined) throw new UsageError(`agentchart ${command} needs a file or an example name.\n\n${usage(command)}`);
  if (extra.length > 0) throw new UsageError(`agentchart ${command} takes one file or example, not also ${extra.join(' ')}.\n\n${usage(command)}`);
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  if (command === 'diagram') await diagramCommand(target, { format: text('format') ?? 'mermaid', machine: text('machine'), out: text('out') });
  else if (command === 'trace') await traceCommand(target, { verbose: values.verbose === true });
  else if (command === 'record') await recordCommand(target, { out: text('out') });
  else await viewCommand(target, { port: text('port'), speed: text('speed'), now: values.now === true });
}

useCallerCwd(['agentchart']);
try {
  await main(process.argv.slice(2));
} catch (error) {
  console.error(`agentchart: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
