/**
 * Every statement the stores run, one text for both databases, with
 * Postgres' numbered parameters (`$1`); the SQLite driver rewrites them to
 * SQLite's `?1`. A write is fenced inside the statement itself (its WHERE
 * names the lease's owner and token and an unexpired lease), so a single
 * write needs no transaction; `writeBatch` runs several in one, its first
 * statement the fence (see `SqlRunStore.writeBatch`). A write returns
 * only what its caller cannot know (a row changed is counted by the
 * driver): reading rows back costs more than the write itself. A write
 * that returns rows returns at most one: the row its key names.
 */

const RUN_COLUMNS = 'run_id, kind, name, status, version, lease_owner, lease_token, lease_expires_at, created_at, updated_at';

/** $1 run id, $2 owner, $3 token, $4 now: the lease is current. */
export const LEASE_IS_CURRENT = 'run_id = $1 AND lease_owner = $2 AND lease_token = $3 AND lease_expires_at > $4';

export const SQL = {
  /** $1 id, $2 kind, $3 name, $4 owner, $5 expires, $6 now */
  createRun: `INSERT INTO agentchart_runs (run_id, kind, name, status, version, state, lease_owner, lease_token, lease_expires_at, created_at, updated_at)
    VALUES ($1, $2, $3, 'running', 0, NULL, $4, 1, $5, $6, $6)
    ON CONFLICT (run_id) DO NOTHING`,
  /** $1 id, $2 owner, $3 expires, $4 now */
  acquireLease: `UPDATE agentchart_runs SET lease_owner = $2, lease_token = lease_token + 1, lease_expires_at = $3, updated_at = $4
    WHERE run_id = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at <= $4)
    RETURNING lease_token`,
  /** $1 id, $2 owner, $3 token, $4 now, $5 new expiry */
  renewLease: `UPDATE agentchart_runs SET lease_expires_at = $5 WHERE ${LEASE_IS_CURRENT}`,
  /** $1 id, $2 owner, $3 token */
  releaseLease: `UPDATE agentchart_runs SET lease_owner = NULL, lease_expires_at = NULL
    WHERE run_id = $1 AND lease_owner = $2 AND lease_token = $3`,
  /** $1 id, $2 owner, $3 token, $4 now, $5 status, $6 state: a whole checkpoint */
  saveState: `UPDATE agentchart_runs SET status = $5, state = $6, version = version + 1, state_version = version + 1, updated_at = $4
    WHERE ${LEASE_IS_CURRENT} RETURNING version`,
  /** $1 id: the deltas a whole checkpoint replaced (only those: it runs whether or not the checkpoint's fence passed) */
  dropReplacedDeltas: `DELETE FROM agentchart_state_deltas
    WHERE run_id = $1 AND version <= (SELECT state_version FROM agentchart_runs WHERE run_id = $1)`,
  /** $1 id, $2 owner, $3 token, $4 now: a checkpoint written as a delta (its row and its status follow) */
  saveDeltaVersion: `UPDATE agentchart_runs SET version = version + 1, updated_at = $4
    WHERE ${LEASE_IS_CURRENT} RETURNING version`,
  /**
   * $1 id, $2 owner, $3 token, $4 now, $5 status: a delta's status, written
   * only when it changed (the index of unfinished runs is then left as is)
   */
  saveChangedStatus: `UPDATE agentchart_runs SET status = $5 WHERE ${LEASE_IS_CURRENT} AND status <> $5`,
  /** $1 id, $2 owner, $3 token, $4 now, $5 delta: the delta row of the version just written (fenced like it) */
  insertDelta: `INSERT INTO agentchart_state_deltas (run_id, version, delta)
    SELECT run_id, version, $5 FROM agentchart_runs WHERE ${LEASE_IS_CURRENT}`,
  /** $1 id, $2 the version of the run's whole checkpoint, $3 the run's version: the deltas between */
  loadDeltas: 'SELECT version, delta FROM agentchart_state_deltas WHERE run_id = $1 AND version > $2 AND version <= $3 ORDER BY version',
  /** $1 id, $2 owner, $3 token, $4 now: the fence of a batch without a checkpoint (in Postgres it also locks the run's row until the commit) */
  touchLease: `UPDATE agentchart_runs SET updated_at = $4 WHERE ${LEASE_IS_CURRENT}`,
  /** $1 id */
  loadRun: `SELECT ${RUN_COLUMNS}, state, state_version FROM agentchart_runs WHERE run_id = $1`,
  listUnfinished: `SELECT ${RUN_COLUMNS} FROM agentchart_runs WHERE status <> 'finished' ORDER BY created_at, run_id`,
  /** $1 kind */
  listUnfinishedOfKind: `SELECT ${RUN_COLUMNS} FROM agentchart_runs WHERE status <> 'finished' AND kind = $1 ORDER BY created_at, run_id`,
  /** $1 id, $2 owner, $3 token, $4 now, $5 call id, $6 tool, $7 arguments hash, $8 idempotency key */
  recordCallStarted: `INSERT INTO agentchart_tool_calls (run_id, call_id, seq, tool_name, arguments_hash, idempotency_key, status, result, started_token, started_at, finished_at)
    SELECT CAST($1 AS TEXT), CAST($5 AS TEXT), (SELECT COALESCE(MAX(seq), 0) + 1 FROM agentchart_tool_calls WHERE run_id = $1),
      CAST($6 AS TEXT), CAST($7 AS TEXT), CAST($8 AS TEXT), 'started', NULL, CAST($3 AS BIGINT), CAST($4 AS BIGINT), NULL
    WHERE EXISTS (SELECT 1 FROM agentchart_runs WHERE ${LEASE_IS_CURRENT})
    ON CONFLICT (run_id, call_id) DO NOTHING`,
  /** $1 id, $2 owner, $3 token, $4 now, $5 call id, $6 result: returns what the start recorded (the result is the caller's) */
  recordCallResult: `UPDATE agentchart_tool_calls SET status = 'finished', result = $6, finished_at = $4
    WHERE run_id = $1 AND call_id = $5 AND status = 'started'
      AND EXISTS (SELECT 1 FROM agentchart_runs WHERE ${LEASE_IS_CURRENT})
    RETURNING tool_name, arguments_hash, idempotency_key, started_token, started_at`,
  /** $1 id, $2 call id */
  loadCall: 'SELECT * FROM agentchart_tool_calls WHERE run_id = $1 AND call_id = $2',
  /** $1 id */
  listCalls: 'SELECT * FROM agentchart_tool_calls WHERE run_id = $1 ORDER BY seq',
  /** $1 id, $2 owner, $3 token, $4 now */
  leaseIsCurrent: `SELECT 1 AS current FROM agentchart_runs WHERE ${LEASE_IS_CURRENT}`,
  appliedMigrations: 'SELECT version FROM agentchart_schema_migrations ORDER BY version',
  /** $1 version, $2 name, $3 now */
  recordMigration: 'INSERT INTO agentchart_schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
} as const;
