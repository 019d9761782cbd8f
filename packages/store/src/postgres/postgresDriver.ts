import pg from 'pg';
import type { SqlDriver, SqlRows } from '../shared/sqlDriver.js';

/** The advisory lock key migrators take (any constant unique to agentchart). */
const MIGRATION_LOCK_KEY = 7_212_014;

/** A `SqlDriver` on a `pg` pool: statements run as they are written. */
export function postgresDriver(pool: pg.Pool, ownsPool: boolean): SqlDriver {
  const query = async (sql: string, params: readonly unknown[] = []): Promise<SqlRows> => {
    const result = await pool.query(sql, params as unknown[]);
    return { rows: result.rows as Record<string, unknown>[] };
  };
  return {
    query,
    withMigrationLock: (apply) =>
      transaction(pool, async (query) => {
        await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        return apply(query);
      }),
    async batch(statements) {
      // One round trip: a simple-protocol query of several statements is one transaction (all or nothing).
      const result = (await pool.query(statements.map((statement) => withLiterals(statement.sql, statement.params)).join(';\n'))) as unknown as
        | pg.QueryResult
        | pg.QueryResult[];
      return (Array.isArray(result) ? result : [result]).map((one) => ({ rows: one.rows as Record<string, unknown>[] }));
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}

/** Runs `work` in one transaction on one client of the pool: committed when it resolves, rolled back when it throws. */
async function transaction<T>(pool: pg.Pool, work: (query: SqlDriver['query']) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(async (sql, params = []) => ({ rows: (await client.query(sql, params as unknown[])).rows }));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * The statement with its `$n` parameters written as literals, for a
 * simple-protocol query (which takes no parameters): text through `pg`'s
 * `escapeLiteral`, numbers only as safe integers, `null` as NULL. The store
 * binds nothing else.
 */
function withLiterals(sql: string, params: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_match, index: string) => literal(params[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`A batch parameter must be text, a safe integer or null (got ${typeof value} ${String(value)}).`);
}
