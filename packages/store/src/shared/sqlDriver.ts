/** One result of a statement: its rows (column names as in the schema), and how many rows a write changed. */
export interface SqlRows {
  rows: Record<string, unknown>[];
  /** Rows inserted, updated or deleted by a write (0 for a read). */
  changes: number;
}

/** One statement of a batch: SQL with Postgres-style `$1` parameters, and the parameters. */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/**
 * What the store needs from a database: run one statement (Postgres-style
 * `$1` parameters), run the migrations under the database's own lock, close.
 */
export interface SqlDriver {
  /** The database runs writes inside `WITH` (Postgres): a batch can be one statement (`oneStatementBatch`). */
  readonly writesInWith?: boolean;
  query(sql: string, params?: readonly unknown[]): Promise<SqlRows>;
  /**
   * Runs `apply` inside one transaction that no other process migrating the
   * same database runs at the same time. `query` inside it runs in that
   * transaction.
   */
  withMigrationLock<T>(apply: (query: SqlDriver['query']) => Promise<T>): Promise<T>;
  /**
   * Runs `statements` in order in one write transaction and returns each
   * one's rows; a statement that fails rolls all of them back (the error is
   * rethrown). SQLite runs them in one synchronous call under the write lock
   * (`BEGIN IMMEDIATE`), so the transaction never stays open while other
   * work of the process runs; Postgres locks rows as the statements reach
   * them.
   */
  batch(statements: readonly SqlStatement[]): Promise<SqlRows[]>;
  close(): Promise<void>;
}
