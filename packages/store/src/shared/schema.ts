/**
 * The store's schema, one text for SQLite and Postgres: only types both
 * read the same way (TEXT, BIGINT) and constraints both enforce. Times are
 * milliseconds since the epoch; `state`, `delta` and `result` are JSON text
 * (kept byte for byte, so a signed snapshot reads back as it was written).
 * A run's checkpoint is its `state` (written at `state_version`) and the
 * deltas of the versions after it, in `agentchart_state_deltas`.
 *
 * A migration is applied once, in order, inside one transaction, and
 * recorded in `agentchart_schema_migrations`. Never edit a released
 * migration: add the next one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS agentchart_schema_migrations (
  version BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  applied_at BIGINT NOT NULL
)`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'runs, leases and the tool-call journal',
    statements: [
      `CREATE TABLE agentchart_runs (
        run_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('run', 'chat')),
        name TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'waiting', 'finished')),
        version BIGINT NOT NULL,
        state TEXT,
        lease_owner TEXT,
        lease_token BIGINT NOT NULL,
        lease_expires_at BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      )`,
      `CREATE INDEX agentchart_runs_unfinished ON agentchart_runs (created_at) WHERE status <> 'finished'`,
      `CREATE TABLE agentchart_tool_calls (
        run_id TEXT NOT NULL REFERENCES agentchart_runs (run_id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        tool_name TEXT NOT NULL,
        arguments_hash TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('started', 'finished')),
        result TEXT,
        started_token BIGINT NOT NULL,
        started_at BIGINT NOT NULL,
        finished_at BIGINT,
        PRIMARY KEY (run_id, call_id)
      )`,
      // The journal's order, and the next sequence number without a scan.
      `CREATE UNIQUE INDEX agentchart_tool_calls_order ON agentchart_tool_calls (run_id, seq)`,
    ],
  },
  {
    version: 2,
    name: 'checkpoints as deltas',
    statements: [
      // The version the `state` column was written at: the deltas after it build on it.
      'ALTER TABLE agentchart_runs ADD COLUMN state_version BIGINT NOT NULL DEFAULT 0',
      'UPDATE agentchart_runs SET state_version = version',
      `CREATE TABLE agentchart_state_deltas (
        run_id TEXT NOT NULL REFERENCES agentchart_runs (run_id) ON DELETE CASCADE,
        version BIGINT NOT NULL,
        delta TEXT NOT NULL,
        PRIMARY KEY (run_id, version)
      )`,
    ],
  },
];

/** The schema version this release writes and reads. */
export const STORE_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
