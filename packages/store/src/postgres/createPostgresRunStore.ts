import type { RunStore } from '@agentchart/core';
import pg from 'pg';
import { openSqlRunStore } from '../shared/openSqlRunStore.js';
import type { StoreClock } from '../shared/sqlRunStore.js';
import { postgresDriver } from './postgresDriver.js';

export interface PostgresRunStoreOptions {
  /** A connection string (`postgres://user@host:port/db`); or pass `pool`. */
  connectionString?: string;
  /**
   * A pool of your own (the store does not end it on close). A step's writes
   * are one statement on any pool; created with `pipeline: true` (as the
   * store's own is), it also sends a batch of several statements (one that
   * writes a call twice) in one round trip, else one after the other.
   */
  pool?: pg.Pool;
  /**
   * Whether the store's statements are prepared (named) on each connection,
   * so that Postgres parses and plans each one once per connection, not on
   * every write (default `true`). Pass `false` behind a pooler that hands a
   * session's statements to another server connection: PgBouncer in
   * transaction or statement mode before 1.21, or with
   * `max_prepared_statements = 0`.
   */
  preparedStatements?: boolean;
  /** The clock leases are measured against (default `Date.now`; every process should agree within a lease's margin). */
  now?: StoreClock;
}

/**
 * Opens (and migrates) the run store in a Postgres database.
 *
 * @example
 * import { createPostgresRunStore } from '@agentchart/store/postgres';
 * const store = await createPostgresRunStore({ connectionString: process.env.DATABASE_URL });
 */
export async function createPostgresRunStore(options: PostgresRunStoreOptions): Promise<RunStore> {
  const now = options.now ?? Date.now;
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: 4, pipeline: true });
  // An idle client that loses its connection emits 'error'; the next query reports it, so do not crash here.
  if (ownsPool) pool.on('error', () => {});
  const driver = postgresDriver(pool, ownsPool, options.preparedStatements ?? true);
  return openSqlRunStore(driver, now);
}
