import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, resumeRunFromStore } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { MIGRATIONS, STORE_SCHEMA_VERSION } from '@agentchart/store';
import { createPostgresRunStore } from '@agentchart/store/postgres';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { createClient } from '@libsql/client';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';
import { testClock } from '../store/runStoreContract.js';
import { wholeCheckpoints } from '../support/writtenCheckpoints.js';
import { journaledTool } from './journaledTool.js';

const KEY = 'a-secret-of-at-least-16-bytes';
const LEASE = 60_000;
const scratch = mkdtempSync(join(tmpdir(), 'agentchart-earlier-'));
let server: TestPostgres;
beforeAll(async () => {
  server = await startTestPostgres();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

function payer(ledger: string[]) {
  return createAgent({
    name: 'payer',
    model: scriptedModel((request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: 'paid' }
        : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: 'Bob' } }] },
    ),
    tools: [journaledTool('pay', { approval: 'always' }, (to) => ledger.push(`pay ${to}`))],
    snapshotKey: KEY,
  });
}

it('a SQLite database of the schema before deltas is migrated, and the whole checkpoints its rows hold resume', async () => {
  // A signed run waiting for approval, its checkpoint whole (as every release before deltas wrote it).
  const source = join(scratch, 'source.db');
  const clock = testClock();
  const writer = await createSqliteRunStore({ path: source, now: clock.now });
  const run = payer([]).run('pay Bob', { store: wholeCheckpoints(writer), runId: 'run-1', owner: 'w1', leaseMs: LEASE });
  for (let attempt = 0; attempt < 400 && (await writer.loadRun('run-1'))?.status !== 'waiting'; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const stored = await writer.loadRun('run-1');
  run.abort();
  await writer.close();

  // The same row in a database at schema version 1.
  const path = join(scratch, 'earlier.db');
  const client = createClient({ url: `file:${path}` });
  await client.execute('CREATE TABLE agentchart_schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
  for (const statement of MIGRATIONS[0]!.statements) await client.execute(statement);
  await client.execute({ sql: 'INSERT INTO agentchart_schema_migrations VALUES (1, ?, 0)', args: [MIGRATIONS[0]!.name] });
  await client.execute({
    sql: `INSERT INTO agentchart_runs (run_id, kind, name, status, version, state, lease_owner, lease_token, lease_expires_at, created_at, updated_at)
      VALUES ('run-1', 'run', 'payer', 'waiting', ?, ?, NULL, 1, NULL, 0, 0)`,
    args: [stored!.version, JSON.stringify(stored!.state)],
  });
  client.close();

  const store = await createSqliteRunStore({ path, now: clock.now });
  try {
    const check = createClient({ url: `file:${path}` });
    const versions = (await check.execute('SELECT version FROM agentchart_schema_migrations ORDER BY version')).rows.map((row) =>
      Number(row.version),
    );
    check.close();
    expect(versions).toEqual(MIGRATIONS.map((migration) => migration.version));
    expect(versions.at(-1)).toBe(STORE_SCHEMA_VERSION);
    expect(await store.loadRun('run-1')).toMatchObject({ status: 'waiting', version: stored!.version, state: stored!.state });

    const ledger: string[] = [];
    const resumed = await resumeRunFromStore(payer(ledger), 'run-1', { store, owner: 'w2', leaseMs: LEASE });
    expect(resumed.run.pendingApprovals.map((request) => request.id)).toEqual(['call_1']);
    resumed.run.approve('call_1');
    expect((await resumed.run.result).text).toBe('paid');
    expect(ledger).toEqual(['pay Bob']);
    expect(await store.loadRun('run-1')).toMatchObject({ status: 'finished', state: { stopReason: 'completed' } });
  } finally {
    await store.close();
  }
});

it('a Postgres database of the schema before deltas is migrated, and the whole checkpoints its rows hold resume', async () => {
  const clock = testClock();
  const url = new URL(server.url);
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const database = `earlier_${Math.random().toString(36).slice(2)}`;
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  url.pathname = `/${database}`;
  const connectionString = url.toString();

  // The same waiting run, its checkpoint whole, in a database at schema version 1.
  const writer = await createPostgresRunStore({ connectionString: server.url, now: clock.now });
  const run = payer([]).run('pay Bob', { store: wholeCheckpoints(writer), runId: 'pg-run-1', owner: 'w1', leaseMs: LEASE });
  for (let attempt = 0; attempt < 400 && (await writer.loadRun('pg-run-1'))?.status !== 'waiting'; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const stored = await writer.loadRun('pg-run-1');
  run.abort();
  await writer.close();
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query('CREATE TABLE agentchart_schema_migrations (version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
  for (const statement of MIGRATIONS[0]!.statements) await client.query(statement);
  await client.query('INSERT INTO agentchart_schema_migrations VALUES (1, $1, 0)', [MIGRATIONS[0]!.name]);
  await client.query(
    `INSERT INTO agentchart_runs (run_id, kind, name, status, version, state, lease_owner, lease_token, lease_expires_at, created_at, updated_at)
      VALUES ('pg-run-1', 'run', 'payer', 'waiting', $1, $2, NULL, 1, NULL, 0, 0)`,
    [stored!.version, JSON.stringify(stored!.state)],
  );

  const store = await createPostgresRunStore({ connectionString, now: clock.now });
  try {
    const versions = (await client.query('SELECT version FROM agentchart_schema_migrations ORDER BY version')).rows.map((row) => Number(row.version));
    expect(versions).toEqual(MIGRATIONS.map((migration) => migration.version));
    const ledger: string[] = [];
    const resumed = await resumeRunFromStore(payer(ledger), 'pg-run-1', { store, owner: 'w2', leaseMs: LEASE });
    expect(resumed.run.pendingApprovals.map((request) => request.id)).toEqual(['call_1']);
    resumed.run.approve('call_1');
    expect((await resumed.run.result).text).toBe('paid');
    expect(ledger).toEqual(['pay Bob']);
    expect(await store.loadRun('pg-run-1')).toMatchObject({ status: 'finished', state: { stopReason: 'completed' } });
  } finally {
    await store.close();
    await client.end();
  }
});
