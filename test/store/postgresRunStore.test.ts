import { createPostgresRunStore } from '@agentchart/store/postgres';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
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
