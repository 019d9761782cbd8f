import { ConfigurationError } from '@agentchart/core';
import Database from 'libsql';
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
 * How many pages the WAL grows to before a commit copies them back into the
 * database file (SQLite's default is 1000). A copy syncs the file, and a
 * checkpoint of a step dirties several pages (the run's row, its delta row,
 * the journal's rows and their indexes), so at the default the writes would
 * stop for a sync every hundred-odd steps; this many keep the WAL file at
 * about 16 MB at most.
 */
const WAL_AUTOCHECKPOINT_PAGES = 4000;

type Connection = Database.Database;
type Statement = Database.Statement;

/**
 * A `SqlDriver` on one SQLite connection (`libsql`, the engine under
 * `@libsql/client`, with the same prebuilt binaries) in WAL mode: readers never block
 * the writer, and several processes can share the file (each write waits up
 * to `busyTimeoutMs`). Statements run synchronously and are prepared once
 * per connection; a batch is one `BEGIN IMMEDIATE … COMMIT` in one
 * synchronous call, so no transaction stays open while other work runs.
 */
export async function openSqliteDriver(options: SqliteDriverOptions): Promise<SqlDriver> {
  if (!Number.isFinite(options.busyTimeoutMs) || options.busyTimeoutMs < 0) {
    throw new ConfigurationError(`busyTimeoutMs is a number of milliseconds, 0 or more (got ${options.busyTimeoutMs}). Pass e.g. 5000.`, {
      busyTimeoutMs: options.busyTimeoutMs,
    });
  }
  const db = new Database(options.path);
  try {
    db.exec(`PRAGMA busy_timeout = ${Math.floor(options.busyTimeoutMs)}`); // milliseconds
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.exec('PRAGMA foreign_keys = ON');
    db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  } catch (error) {
    db.close();
    throw error;
  }
  return sqliteDriver(db);
}

function sqliteDriver(db: Connection): SqlDriver {
  const prepared = new Map<string, { statement: Statement; returns: 'nothing' | 'one row' | 'rows' }>();
  /** Runs one statement synchronously, prepared on its first use. */
  const run = (sql: string, params: readonly unknown[]): SqlRows => {
    let entry = prepared.get(sql);
    if (entry === undefined) {
      const statement = db.prepare(toSqliteParameters(sql));
      // A write that returns rows names its one row by key (see `SQL`): read with one call, no row cursor.
      const returns = !statement.reader ? 'nothing' : /^\s*(INSERT|UPDATE|DELETE)\b/i.test(sql) ? 'one row' : 'rows';
      entry = { statement, returns };
      prepared.set(sql, entry);
    }
    if (entry.returns === 'nothing') return { rows: [], changes: entry.statement.run(...params).changes };
    if (entry.returns === 'one row') {
      // SQLite makes every change of a write with RETURNING in its first step, so reading one row writes it all.
      const row = entry.statement.get(...params) as Record<string, unknown> | undefined;
      return row === undefined ? { rows: [], changes: 0 } : { rows: [row], changes: 1 };
    }
    const rows = entry.statement.all(...params) as Record<string, unknown>[];
    return { rows, changes: rows.length };
  };
  /** A statement may not outlive its connection: prepared on first use, like the others, and dropped on close. */
  let transaction: { begin: Statement; commit: Statement } | undefined;
  const inTransaction = <T>(work: () => T): T => {
    transaction ??= { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT') };
    transaction.begin.run(); // the write lock at once: one writer at a time, waiting up to the busy timeout
    try {
      const result = work();
      transaction.commit.run();
      return result;
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  };
  return {
    query: async (sql, params = []) => run(sql, params),
    async withMigrationLock(apply) {
      db.exec('BEGIN IMMEDIATE'); // one migrator at a time
      try {
        const result = await apply(async (sql, params = []) => run(sql, params));
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
    batch: async (statements) => inTransaction(() => statements.map((statement) => run(statement.sql, statement.params))),
    async close() {
      prepared.clear();
      transaction = undefined;
      db.close();
    },
  };
}
