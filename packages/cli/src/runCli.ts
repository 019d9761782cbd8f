import { nearestName } from './args/nearestName.js';
import { useCallerCwd } from './callerCwd.js';
import type { CommandContext, ExampleSource } from './command.js';
import { COMMANDS } from './commandTable.js';
import { EXIT } from './exitCodes.js';

/** What `runCli` takes beside the arguments. */
export interface CliOptions {
  /** Example scripts known by name (the workspace's examples). */
  examples?: ExampleSource;
  /** True when TypeScript modules already load in this process (tsx registered). Default false. */
  loadsTypeScript?: boolean;
}

/**
 * Runs one `agentchart` command line (the arguments after `agentchart`) and
 * returns its exit code: 0 done (`--help` too), 1 failed, 2 a wrong command
 * line. Errors are printed as one line, `agentchart …: what happened`.
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2));
 */
export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  useCallerCwd(['agentchart']);
  const [name, ...args] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(overview(options.examples));
    return EXIT.ok;
  }
  if (name === undefined) {
    process.stderr.write(overview(options.examples));
    return EXIT.usage;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    const option = name.startsWith('-');
    const what = option
      ? `unknown option ${name}; did you mean --help?`
      : `unknown command "${name}"; did you mean ${nearestName(name, Object.keys(COMMANDS))}?`;
    process.stderr.write(`agentchart: ${what} (agentchart --help lists the commands)\n`);
    return EXIT.usage;
  }
  const context: CommandContext = { examples: options.examples, loadsTypeScript: options.loadsTypeScript ?? false };
  try {
    return await (await entry.load()).run(args, context);
  } catch (error) {
    const usage = (error as { code?: unknown }).code === 'CLI_USAGE';
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${message.startsWith('agentchart') ? message : `agentchart ${name}: ${message}`}\n`);
    return usage ? EXIT.usage : EXIT.failed;
  }
}

function overview(examples: ExampleSource | undefined): string {
  const lines = Object.values(COMMANDS).map((entry) => `  agentchart ${entry.summary}`);
  return [
    'Usage:',
    ...lines,
    '  agentchart <command> --help',
    '',
    'diagram, trace, record and view need @agentchart/inspect; mcp needs @agentchart/mcp;',
    'worker … recover (durable chats on Postgres) need @agentchart/dbos.',
    'Exit codes: 0 done, 1 failed, 2 wrong command line.',
    ...(examples === undefined ? [] : ['', `Examples: ${examples.names().join(', ')}`]),
    '',
  ].join('\n');
}
