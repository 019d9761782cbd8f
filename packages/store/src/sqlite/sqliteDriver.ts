import { type Client, type InValue, createClient } from '@libsql/client';
import type { SqlDriver, SqlRows } from '../shared/sqlDriver.js';
import { toSqliteParameters } from '../shared/sqlDriverCommon.js';

export interface SqliteDriverOptions {
  /** The database file; created when missing. */
  path: string;
  /** How long a statement waits for another process's write lock, in ms. */
  busyTimeoutMs: number;
  /** `normal` survives a process crash (WAL); `full` also a power loss, at a cost per checkpoint. */
  synchronous: 'normal' | 'full';
}

/**
 * A `SqlDriver` on one SQLite connection (`@libsql/client`, prebuilt
 * binaries) in WAL mode: readers never block the writer, and several
 * processes can share the file (each write waits up to `busyTimeoutMs`).
 */
export async function openSqliteDriver(options: SqliteDriverOptions): Promise<SqlDriver> {
  // One connection: the PRAGMAs below are per connection, and libsql runs statements synchronously anyway.
  const client = createClient({ url: `file:${options.path}`, concurrency: 1, timeout: options.busyTimeoutMs });
  await client.execute('PRAGMA journal_mode = WAL');
  await client.execute(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  await client.execute('PRAGMA foreign_keys = ON');
  return sqliteDriver(client);
}

function sqliteDriver(client: Client): SqlDriver {
  const cache = new Map<string, string>();
  const rewrite = (sql: string) => {
    let text = cache.get(sql);
    if (text === undefined) {
      text = toSqliteParameters(sql);
      cache.set(sql, text);
    }
    return text;
  };
  const query = async (sql: string, params: readonly unknown[] = []): Promise<SqlRows> => {
    const result = await client.execute({ sql: rewrite(sql), args: params as InValue[] });
    return { rows: result.rows as unknown as Record<string, unknown>[] };
  };
  return {
    query,
    async withMigrationLock(apply) {
      const transaction = await client.transaction('write'); // BEGIN IMMEDIATE: one migrator at a time
      try {
        const result = await apply(async (sql, params = []) => {
          const rows = await transaction.execute({ sql: rewrite(sql), args: params as InValue[] });
          return { rows: rows.rows as unknown as Record<string, unknown>[] };
        });
        await transaction.commit();
        return result;
      } finally {
        transaction.close();
      }
    },
    async close() {
      client.close();
    },
  };
}
