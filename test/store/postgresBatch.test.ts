import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDriver } from '../../packages/store/src/postgres/postgresDriver.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';

let server: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startTestPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 2, pipeline: true });
  await pool.query('CREATE TABLE batch_rows (id INTEGER PRIMARY KEY, note TEXT NOT NULL)');
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
}, 60_000);

const rows = async () => (await pool.query('SELECT id, note FROM batch_rows ORDER BY id')).rows;

describe('the Postgres driver batch', () => {
  it('binds parameters as values, never as SQL, and returns each statement’s rows and row count in order', async () => {
    const driver = postgresDriver(pool, false, true);
    const hostile = "'); DROP TABLE batch_rows; --";
    const results = await driver.batch([
      { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2) RETURNING id', params: [1, hostile] },
      { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2)', params: [2, 'plain'] },
      { sql: 'SELECT count(*)::int AS n FROM batch_rows', params: [] },
    ]);
    expect(results).toEqual([
      { rows: [{ id: 1 }], changes: 1 },
      { rows: [], changes: 1 },
      { rows: [{ n: 2 }], changes: 1 },
    ]);
    expect(await rows()).toEqual([
      { id: 1, note: hostile },
      { id: 2, note: 'plain' },
    ]);
  });

  it('is all or nothing: a statement that fails rolls back the ones before it, and the pool stays usable', async () => {
    const driver = postgresDriver(pool, false, true);
    await expect(
      driver.batch([
        { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2)', params: [3, 'rolled back'] },
        { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2)', params: [1, 'duplicate key'] },
        { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2)', params: [4, 'never written'] },
      ]),
    ).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect((await rows()).map((row) => row.id)).toEqual([1, 2]);
    const again = await driver.batch([{ sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2) RETURNING note', params: [5, 'after'] }]);
    expect(again).toEqual([{ rows: [{ note: 'after' }], changes: 1 }]);
  });

  it('is one transaction on a pool without pipelining too', async () => {
    const plain = new pg.Pool({ connectionString: server.url, max: 1 });
    try {
      const driver = postgresDriver(plain, false, true);
      await expect(
        driver.batch([
          { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2)', params: [6, 'rolled back'] },
          { sql: 'INSERT INTO batch_rows (id, note) VALUES ($1, $2)', params: [5, 'duplicate key'] },
        ]),
      ).rejects.toThrow(/duplicate key/);
      expect((await rows()).map((row) => row.id)).toEqual([1, 2, 5]);
    } finally {
      await plain.end();
    }
  });
});
