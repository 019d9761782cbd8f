import type { RunStore } from '@agentchart/core';
import { openSqlRunStore } from '../shared/openSqlRunStore.js';
import type { StoreClock } from '../shared/sqlRunStore.js';
import { openSqliteDriver } from './sqliteDriver.js';

export interface SqliteRunStoreOptions {
  /** The database file (created with its schema when missing). */
  path: string;
  /** How long a write waits for another process holding the file's write lock, in ms (default 5000). */
  busyTimeoutMs?: number;
  /** `normal` (default): a checkpoint survives a process crash; `full`: also a power loss, slower. */
  synchronous?: 'normal' | 'full';
  /** The clock leases are measured against (default `Date.now`). */
  now?: StoreClock;
}

/**
 * Opens (and migrates) the embedded run store: one SQLite file in WAL mode.
 *
 * @example
 * import { createSqliteRunStore } from '@agentchart/store/sqlite';
 * const store = await createSqliteRunStore({ path: './agentchart.db' });
 */
export async function createSqliteRunStore(options: SqliteRunStoreOptions): Promise<RunStore> {
  const now = options.now ?? Date.now;
  const driver = await openSqliteDriver({
    path: options.path,
    busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
    synchronous: options.synchronous ?? 'normal',
  });
  return openSqlRunStore(driver, now);
}
