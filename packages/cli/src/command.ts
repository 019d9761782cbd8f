/** Example scripts the CLI can run by name (`agentchart record research-rules`); the workspace's examples package gives them. */
export interface ExampleSource {
  /** The names, sorted. */
  names(): readonly string[];
  /** The module URL of a name; `undefined` when it is not one. */
  resolve(name: string): string | undefined;
}

/** What every command is run with. */
export interface CommandContext {
  /** Example scripts known by name, when the CLI runs inside the agentchart workspace. */
  examples: ExampleSource | undefined;
  /** True when TypeScript modules already load (the workspace registers tsx); otherwise a `.ts` script loads through tsx. */
  loadsTypeScript: boolean;
}

/**
 * One `agentchart` command. `run` takes the arguments after the command's
 * name, answers `--help` with its usage (exit 0), and returns the exit code
 * (see exitCodes.ts) or throws (a `UsageError` exits 2, anything else 1).
 */
export interface Command {
  run(args: readonly string[], context: CommandContext): Promise<number>;
}

/**
 * Prints a command's usage on stdout, for `--help`; returns exit code 0.
 *
 * @example
 * if (parsed === 'help') return showHelp(USAGE);
 */
export function showHelp(usage: string): number {
  process.stdout.write(`${usage}\n`);
  return 0;
}
