/**
 * `@agentchart/store`: what both stores share. Open one through its own
 * entry point, so a process loads only the driver it uses:
 * `@agentchart/store/sqlite` or `@agentchart/store/postgres`.
 */
export { MIGRATIONS, type Migration, STORE_SCHEMA_VERSION } from './shared/schema.js';
