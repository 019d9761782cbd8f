import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunStore } from '@agentchart/core';
import { createPostgresRunStore } from '@agentchart/store/postgres';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { createClient } from '@libsql/client';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { TestClock } from '../store/runStoreContract.js';
import { startTestPostgres, type TestPostgres } from './postgres/testPostgres.js';

/** A store, and raw SQL on its tables (what a person with write access can do). */
export interface RawSqlBackend {
  open(clock: TestClock): Promise<RunStore>;
  sql(text: string, values: unknown[]): Promise<void>;
}

/**
 * A SQLite and a Postgres backend for one test file: registers the hooks that start the
 * file's Postgres cluster and remove its scratch folder.
 *
 * @example
 * for (const [name, backendOf] of rawSqlBackends('agentchart-chains-')) describe(name, () => { … });
 */
export function rawSqlBackends(scratchPrefix: string): [string, () => RawSqlBackend][] {
  let server: TestPostgres;
  let pool: pg.Pool;
  const scratch = mkdtempSync(join(tmpdir(), scratchPrefix));
  beforeAll(async () => {
    server = await startTestPostgres();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);
  return [
    [
      'SQLite',
      () => {
        const path = join(scratch, 'store.db');
        return {
          open: (clock) => createSqliteRunStore({ path, now: clock.now }),
          sql: async (text, values) => {
            const client = createClient({ url: `file:${path}` });
            await client.execute({ sql: text.replace(/\$(\d+)/g, '?$1'), args: values as never });
            client.close();
          },
        };
      },
    ],
    [
      'Postgres',
      () => ({
        open: (clock) => createPostgresRunStore({ connectionString: server.url, now: clock.now }),
        sql: async (text, values) => {
          await pool.query(text, values);
        },
      }),
    ],
  ];
}

/** Polls `check` every 5 ms until it holds (at most 5 s), for what a run writes in the background. */
export async function untilStored(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out waiting for the store');
}
