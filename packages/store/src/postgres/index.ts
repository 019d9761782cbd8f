export { createPostgresRunStore, type PostgresRunStoreOptions } from './createPostgresRunStore.js';
