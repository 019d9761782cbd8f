/** The durable-chat subcommands of `agentchart`, from `@agentchart/dbos/cli` (loaded only when one is asked for). */
const COMMANDS = new Set(['worker', 'enqueue', 'status', 'events', 'approve', 'reject', 'say', 'select', 'record-result', 'recover']);

/**
 * Runs `argv` when it is a durable-chat subcommand; returns false otherwise.
 *
 * @example
 * if (!(await ranDbosCommand(process.argv.slice(2)))) await import('./main.js');
 */
export async function ranDbosCommand(argv: readonly string[]): Promise<boolean> {
  if (!COMMANDS.has(argv[0] ?? '')) return false;
  const { runDbosCommand } = await import('@agentchart/dbos/cli');
  try {
    process.exitCode = await runDbosCommand(argv);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    console.error(`agentchart: ${typeof code === 'string' ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
  return true;
}
