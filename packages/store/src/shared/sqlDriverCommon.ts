/**
 * Rewrites Postgres' numbered parameters (`$1`) to SQLite's (`?1`): the
 * statements are written once, for both.
 */
export function toSqliteParameters(sql: string): string {
  return sql.replace(/\$(\d+)/g, '?$1');
}
