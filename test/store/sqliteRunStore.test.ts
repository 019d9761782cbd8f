import { createClient } from '@libsql/client';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
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
}));

it('SQLite: the file is in WAL mode', async () => {
  const store = await createSqliteRunStore({ path });
  await store.close();
  const mode = await onFile(async (client) => (await client.execute('PRAGMA journal_mode')).rows[0]?.journal_mode);
  expect(mode).toBe('wal');
});
