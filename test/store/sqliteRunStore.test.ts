import { createClient } from '@libsql/client';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeRunStoreContract } from './runStoreContract.js';

const dir = mkdtempSync(join(tmpdir(), 'agentchart-sqlite-'));
const path = join(dir, 'runs.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function onFile<T>(use: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url: `file:${path}` });
  try {
    return await use(client);
  } finally {
    client.close();
  }
}

describeRunStoreContract('SQLite', () => ({
  open: (clock) => createSqliteRunStore({ path, now: clock.now }),
  recordFutureMigration: (version) =>
    onFile(
      async (client) =>
        void (await client.execute({ sql: 'INSERT INTO agentchart_schema_migrations VALUES (?, ?, ?)', args: [version, 'future', 0] })),
    ),
  forgetMigration: (version) =>
    onFile(async (client) => void (await client.execute({ sql: 'DELETE FROM agentchart_schema_migrations WHERE version = ?', args: [version] }))),
  newestMigration: () =>
    onFile(async (client) => Number((await client.execute('SELECT MAX(version) AS newest FROM agentchart_schema_migrations')).rows[0]?.newest)),
}));

it('SQLite: the file is in WAL mode', async () => {
  const store = await createSqliteRunStore({ path });
  await store.close();
  const mode = await onFile(async (client) => (await client.execute('PRAGMA journal_mode')).rows[0]?.journal_mode);
  expect(mode).toBe('wal');
});

it('SQLite: a busy timeout that is not a number of milliseconds is refused before the file is opened', async () => {
  for (const busyTimeoutMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
    await expect(createSqliteRunStore({ path: join(dir, 'never.db'), busyTimeoutMs })).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      details: { busyTimeoutMs },
    });
  }
});

it('SQLite: a write waits for another process holding the write lock (busy timeout), then goes through', async () => {
  const store = await createSqliteRunStore({ path, busyTimeoutMs: 5_000 });
  const lease = await store.createRun({ runId: `busy_${Date.now()}`, kind: 'run', name: 'payer', owner: 'w1', leaseMs: 30_000 });
  // Another process takes the write lock, says so, holds it for 300 ms and commits.
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import Database from 'libsql';
       const db = new Database(${JSON.stringify(path)});
       db.exec('BEGIN IMMEDIATE');
       process.stdout.write('locked\\n');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec('COMMIT');
       db.close();`,
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    holder.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    holder.on('exit', (code) => reject(new Error(`the lock holder exited (${code}) before taking the lock`)));
  });
  const started = Date.now();
  const written = await store.writeBatch(lease, { state: { status: 'running', state: { step: 1 } } });
  expect(written.version).toBe(1);
  expect(Date.now() - started).toBeGreaterThanOrEqual(100); // it waited for the holder
  if (holder.exitCode === null) await new Promise((resolve) => holder.once('exit', resolve));
  await store.close();
});
