/**
 * The command line is wrong: an unknown command or option, a missing or an
 * extra argument. Printed as one line; exits 2.
 */
export class UsageError extends Error {
  readonly code = 'CLI_USAGE';
  override readonly name = 'UsageError';
}

/**
 * A command needs a package that is not installed (an optional part:
 * `@agentchart/inspect`, `@agentchart/mcp`, `@agentchart/dbos`, `tsx`). Exits 1.
 */
export class MissingPackageError extends Error {
  readonly code = 'CLI_MISSING_PACKAGE';
  override readonly name = 'MissingPackageError';
  constructor(
    readonly packageName: string,
    what: string,
  ) {
    super(`${what} needs ${packageName}, which is not installed: npm install ${packageName}`);
  }
}
