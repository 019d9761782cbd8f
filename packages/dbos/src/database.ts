import pg from 'pg';
import { DbosChatError } from './errors.js';

/**
 * The database URL: the option (or CLI flag) when given, else `DBOS_DATABASE_URL`.
 *
 * @example
 * const url = databaseUrlFrom(flags.database);
 */
export function databaseUrlFrom(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const url = given ?? env.DBOS_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new DbosChatError(
      'DATABASE_URL_MISSING',
      'No database: set DBOS_DATABASE_URL (e.g. postgres://user:pass@host:5432/agentchart) or pass --database <url>.',
    );
  }
  return url;
}

/** Where a URL points, without its password (for messages). */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/**
 * Connects once to check that Postgres answers, and (with `schema`) that
 * DBOS's tables are there. Throws `DbosChatError` `POSTGRES_UNREACHABLE` or
 * `SCHEMA_MISSING` with what to do.
 *
 * @example
 * await checkDatabase(url, { schema: true });
 */
export async function checkDatabase(url: string, options: { schema?: boolean; timeoutMs?: number } = {}): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: options.timeoutMs ?? 5_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new DbosChatError(
      'POSTGRES_UNREACHABLE',
      `Cannot reach Postgres at ${redactedUrl(url)}: ${error instanceof Error ? error.message : String(error)}. Check that the server runs, the URL (DBOS_DATABASE_URL or --database), the credentials and the network.`,
      { url: redactedUrl(url) },
      { cause: error },
    );
  }
  try {
    if (options.schema) {
      const { rows } = await client.query<{ table: string | null }>("SELECT to_regclass('dbos.workflow_status')::text AS table");
      if (rows[0]?.table == null) {
        throw new DbosChatError(
          'SCHEMA_MISSING',
          `The database at ${redactedUrl(url)} has no DBOS schema: no agentchart worker has started on it yet. Start one (agentchart worker --module ./chats.ts), which creates the schema, then try again.`,
          { url: redactedUrl(url) },
        );
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
