export { createSqliteRunStore, type SqliteRunStoreOptions } from './createSqliteRunStore.js';
