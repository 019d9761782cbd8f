import { RunStoreError } from '@agentchart/core';
import { MIGRATIONS, MIGRATIONS_TABLE, type Migration, STORE_SCHEMA_VERSION } from './schema.js';
import { SQL } from './statements.js';
import type { SqlDriver } from './sqlDriver.js';

/**
 * Brings the database to `STORE_SCHEMA_VERSION`: applies, in order and in
 * one locked transaction, every migration not yet recorded. Refuses a
 * database migrated by a newer release (`STORE_SCHEMA_TOO_NEW`). Returns the
 * versions it applied.
 *
 * @example
 * const applied = await migrate(driver, Date.now); // [1] on a new database, [] after
 */
export async function migrate(driver: SqlDriver, now: () => number, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return driver.withMigrationLock(async (query) => {
    await query(MIGRATIONS_TABLE);
    const { rows } = await query(SQL.appliedMigrations);
    const applied = new Set(rows.map((row) => Number(row.version)));
    const newest = Math.max(0, ...applied);
    if (newest > STORE_SCHEMA_VERSION) {
      throw new RunStoreError(
        'STORE_SCHEMA_TOO_NEW',
        `The store's schema is at version ${newest}, written by a newer agentchart; this release knows versions up to ${STORE_SCHEMA_VERSION}. ` +
          'Upgrade @agentchart/store in this process (or point it at another database).',
        { schemaVersion: newest, known: STORE_SCHEMA_VERSION },
      );
    }
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) await query(statement);
      await query(SQL.recordMigration, [migration.version, migration.name, now()]);
      done.push(migration.version);
    }
    return done;
  });
}
