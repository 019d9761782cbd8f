/**
 * The exit codes of every `agentchart` command (docs/cli.md):
 * 0 it did what was asked (`--help` included), 1 it ran and failed
 * (a file that does not hold what it should, a model that cannot be reached,
 * a script that started no run), 2 the command line is wrong (an unknown
 * command or option, a missing argument).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;
