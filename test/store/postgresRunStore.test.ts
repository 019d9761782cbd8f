import { createPostgresRunStore } from '@agentchart/store/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';
import { describeRunStoreContract } from './runStoreContract.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterAll(() => server?.stop(), 60_000);

async function onDatabase(sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

describeRunStoreContract('Postgres', () => ({
  open: (clock) => createPostgresRunStore({ connectionString: server.url, now: clock.now }),
  recordFutureMigration: async (version) =>
    void (await onDatabase('INSERT INTO agentchart_schema_migrations VALUES ($1, $2, $3)', [version, 'future', 0])),
  forgetMigration: async (version) => void (await onDatabase('DELETE FROM agentchart_schema_migrations WHERE version = $1', [version])),
  newestMigration: async () => Number((await onDatabase('SELECT MAX(version) AS newest FROM agentchart_schema_migrations', []))[0]?.newest),
}));

describe('the Postgres store’s statements', () => {
  /** A run's writes through a store on a one-connection pool, then the statements that connection has prepared. */
  async function preparedAfterARun(preparedStatements: boolean | undefined): Promise<string[]> {
    const pool = new pg.Pool({ connectionString: server.url, max: 1 });
    try {
      const store = await createPostgresRunStore({ pool, ...(preparedStatements === undefined ? {} : { preparedStatements }) });
      const runId = `prepared-${String(preparedStatements)}`;
      const lease = await store.createRun({ runId, kind: 'run', name: 'a', owner: 'w', leaseMs: 30_000 });
      const start = { callId: 'c1', toolName: 't', argumentsHash: 'h', idempotencyKey: 'k' };
      await store.writeBatch(lease, { state: { status: 'running', state: { n: 1 } }, journal: [{ kind: 'started', start }] });
      await store.writeBatch(lease, { state: { status: 'running', state: { n: 2 } }, journal: [{ kind: 'result', callId: 'c1', result: 'r' }] });
      await store.releaseLease(lease);
      expect((await store.loadRun(runId))?.state).toEqual({ n: 2 });
      expect((await store.listCalls(runId)).map((entry) => [entry.callId, entry.status, entry.result])).toEqual([['c1', 'finished', 'r']]);
      const { rows } = await pool.query("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'agentchart_%' ORDER BY statement");
      await store.close();
      return rows.map((row) => String(row.statement));
    } finally {
      await pool.end();
    }
  }

  it('are prepared once per connection by default: each write after the first only binds its parameters', async () => {
    const statements = await preparedAfterARun(undefined);
    expect(statements.some((text) => text.startsWith('INSERT INTO agentchart_runs'))).toBe(true);
    expect(statements.filter((text) => text.startsWith('WITH fence AS')).length).toBe(2);
    expect(statements.some((text) => text.startsWith('UPDATE agentchart_runs SET lease_owner = NULL'))).toBe(true);
  });

  it('are sent unnamed with preparedStatements: false (for a pooler that moves a session between connections)', async () => {
    expect(await preparedAfterARun(false)).toEqual([]);
  });
});
