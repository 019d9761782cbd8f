import type pg from 'pg';
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
    async withMigrationLock(apply) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        const result = await apply(async (sql, params = []) => ({ rows: (await client.query(sql, params as unknown[])).rows }));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
