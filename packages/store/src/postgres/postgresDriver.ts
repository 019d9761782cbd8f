import { hash } from 'node:crypto';
import type pg from 'pg';
import type { SqlDriver, SqlRows, SqlStatement } from '../shared/sqlDriver.js';

/** The advisory lock key migrators take (any constant unique to agentchart). */
const MIGRATION_LOCK_KEY = 7_212_014;

/**
 * A `SqlDriver` on a `pg` pool: statements run as they are written, with
 * their parameters bound by the server (extended protocol); writes run
 * inside `WITH`, so the store sends most batches as one statement
 * (`oneStatementBatch`). A batch of several statements is one
 * transaction on one client: `BEGIN`, the statements, `COMMIT`, all sent
 * before the first answer arrives when the pool's clients pipeline
 * (`pipeline: true`, as the store's own pool does), so it costs one round
 * trip; on a pool without it, one round trip each.
 */
export function postgresDriver(pool: pg.Pool, ownsPool: boolean, preparedStatements: boolean): SqlDriver {
  const config = preparedStatements ? prepared : unnamed;
  const query = async (sql: string, params: readonly unknown[] = []): Promise<SqlRows> => {
    return toRows(await pool.query(config(sql, params)));
  };
  return {
    writesInWith: true,
    query,
    withMigrationLock: (apply) =>
      transaction(pool, async (query) => {
        await query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        return apply(query);
      }),
    async batch(statements) {
      const client = await pool.connect();
      let failure: unknown;
      try {
        const texts = [{ sql: 'BEGIN', params: [] }, ...statements, { sql: 'COMMIT', params: [] }];
        const answers = client.pipeline ? await pipelined(client, texts, config) : await oneByOne(client, texts, config);
        const rejected = answers.find((answer) => answer.status === 'rejected');
        if (rejected !== undefined) {
          failure = rejected.reason;
          throw failure;
        }
        return answers.slice(1, -1).map((answer) => toRows((answer as PromiseFulfilledResult<pg.QueryResult>).value));
      } finally {
        // After a failure the connection's transaction state is not known for sure: do not reuse it.
        client.release(failure === undefined ? undefined : failure instanceof Error ? failure : true);
      }
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
    const result = await work(async (sql, params = []) => toRows(await client.query(sql, params as unknown[])));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

type Answers = PromiseSettledResult<pg.QueryResult>[];

/** How a statement is sent: its query config for `pg`. */
type ToConfig = (sql: string, params: readonly unknown[]) => pg.QueryConfig;

const unnamed: ToConfig = (sql, params) => ({ text: sql, values: params as unknown[] });

/** The names of the statements prepared so far, by text. */
const names = new Map<string, string>();

/**
 * A named statement: each connection parses and plans it the first time it
 * runs it, then only binds its parameters. Its name is its text's hash, so
 * two copies of the store sharing a pool never give one name two texts.
 */
const prepared: ToConfig = (sql, params) => {
  let name = names.get(sql);
  if (name === undefined) {
    name = `agentchart_${hash('sha256', sql, 'hex').slice(0, 32)}`;
    names.set(sql, name);
  }
  return { name, text: sql, values: params as unknown[] };
};

function toRows(result: pg.QueryResult): SqlRows {
  return { rows: result.rows as Record<string, unknown>[], changes: result.rowCount ?? 0 };
}

/**
 * Every statement sent before the first answer: one statement that fails
 * aborts the transaction, the ones after it fail with "current transaction
 * is aborted", and the COMMIT then rolls everything back.
 */
function pipelined(client: pg.PoolClient, statements: readonly SqlStatement[], config: ToConfig): Promise<Answers> {
  return Promise.allSettled(statements.map((statement) => client.query(config(statement.sql, statement.params))));
}

/** One statement after the other, stopping at the first failure (the rest are reported as not run). */
async function oneByOne(client: pg.PoolClient, statements: readonly SqlStatement[], config: ToConfig): Promise<Answers> {
  const answers: Answers = [];
  for (const statement of statements) {
    try {
      answers.push({ status: 'fulfilled', value: await client.query(config(statement.sql, statement.params)) });
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      answers.push({ status: 'rejected', reason: error });
      break;
    }
  }
  return answers;
}
