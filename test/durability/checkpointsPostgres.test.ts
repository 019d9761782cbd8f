import { createPostgresRunStore } from '@agentchart/store/postgres';
import { afterAll, beforeAll } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';
import { describeCheckpoints } from './checkpointSuite.js';

let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterAll(() => server?.stop(), 60_000);

describeCheckpoints('Postgres', (clock) => createPostgresRunStore({ connectionString: server.url, now: clock.now }));
