import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from '../cliErrors.js';
import { nearestName } from './nearestName.js';

/** The options of a command, as `node:util`'s `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>;

const COUNT = ['no arguments', 'one argument', 'two arguments'];

/** A parsed command line: option values by name and the positional arguments. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** What `parseCommandArgs` checks beside the options. */
export interface ArgsSpec {
  /** `agentchart diagram`, for messages. */
  command: string;
  options: CommandOptions;
  /** How many positional arguments the command takes (default 0 to 0). */
  positionals?: { min: number; max: number; missing?: string };
}

/**
 * Parses a command's arguments (`--help` and `-h` are always known), or
 * returns `'help'` when help was asked for. A wrong command line throws a
 * `UsageError` of one line: an unknown option names the nearest valid one.
 *
 * @example
 * const parsed = parseCommandArgs(['x.ndjson', '--verbose'], { command: 'agentchart trace', options: { verbose: { type: 'boolean' } }, positionals: { min: 1, max: 1 } });
 */
export function parseCommandArgs(args: readonly string[], spec: ArgsSpec): ParsedArgs | 'help' {
  const options: CommandOptions = { ...spec.options, help: { type: 'boolean', short: 'h' } };
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true }) as ParsedArgs;
  } catch (error) {
    if (args.includes('--help') || args.includes('-h')) return 'help';
    throw usageErrorFrom(error, spec.command, Object.keys(options));
  }
  if (parsed.values.help === true) return 'help';
  const { min, max, missing } = spec.positionals ?? { min: 0, max: 0 };
  if (parsed.positionals.length < min) throw new UsageError(`${spec.command} needs ${missing ?? 'more arguments'}; see ${spec.command} --help.`);
  if (parsed.positionals.length > max) {
    const extra = parsed.positionals.slice(max).join(' ');
    throw new UsageError(`${spec.command} takes ${COUNT[max] ?? max}, not also "${extra}"; see ${spec.command} --help.`);
  }
  return parsed;
}

/**
 * The one-line usage error for a `parseArgs` failure, without Node's error
 * code; an unknown option names the nearest of `known`.
 *
 * @example
 * usageErrorFrom(error, 'agentchart status', ['json', 'database', 'queue']);
 */
export function usageErrorFrom(error: unknown, command: string, known: readonly string[]): Error {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) return error instanceof Error ? error : new Error(String(error));
  const option = typeof message === 'string' ? /'(-[^' ]+)/.exec(message)?.[1] : undefined;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option !== undefined) {
    const nearest = nearestName(option.replace(/^-+/, '').split('=')[0] ?? '', known);
    return new UsageError(
      `${command}: unknown option ${option}${nearest === undefined ? '' : `; did you mean --${nearest}?`} (${command} --help lists them)`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option !== undefined) {
    return new UsageError(`${command}: ${option.split(' ')[0]} needs a value; see ${command} --help.`);
  }
  const text = String(message).split('\n')[0]?.replace(/\.$/, '') ?? 'wrong arguments';
  return new UsageError(`${command}: ${text}; see ${command} --help.`);
}
