/** One result of a statement: its rows, column names as in the schema. */
export interface SqlRows {
  rows: Record<string, unknown>[];
}

/**
 * What the store needs from a database: run one statement (Postgres-style
 * `$1` parameters), run the migrations under the database's own lock, close.
 */
export interface SqlDriver {
  query(sql: string, params?: readonly unknown[]): Promise<SqlRows>;
  /**
   * Runs `apply` inside one transaction that no other process migrating the
   * same database runs at the same time. `query` inside it runs in that
   * transaction.
   */
  withMigrationLock<T>(apply: (query: SqlDriver['query']) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
