import { migrate } from './migrate.js';
import type { SqlDriver } from './sqlDriver.js';
import { SqlRunStore, type StoreClock } from './sqlRunStore.js';

/**
 * Migrates the database behind `driver` and wraps it as a run store; a failed
 * migration closes the driver before it throws, so no connection is left open.
 *
 * @example
 * const store = await openSqlRunStore(await openSqliteDriver({ path, busyTimeoutMs, synchronous }), Date.now);
 */
export async function openSqlRunStore(driver: SqlDriver, now: StoreClock): Promise<SqlRunStore> {
  try {
    await migrate(driver, now);
  } catch (error) {
    await driver.close();
    throw error;
  }
  return new SqlRunStore(driver, now);
}
