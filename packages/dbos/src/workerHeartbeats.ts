import pg from 'pg';

/** The table where live workers say so (created by the first worker). */
const TABLE_SQL = `CREATE TABLE IF NOT EXISTS agentchart_workers (
  executor_id TEXT PRIMARY KEY, queue TEXT NOT NULL, pid INT NOT NULL, heartbeat_at BIGINT NOT NULL)`;

/** Workers' heartbeats: each live worker writes its own every `intervalMs`; the silent ones are dead. */
export interface WorkerHeartbeats {
  /**
   * Claims the executors on `queue` silent for longer than `silentMs` (this
   * one excluded): their rows are deleted in one statement, so of several
   * workers that notice the same dead one, exactly one gets it.
   */
  claimSilent(silentMs: number): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * Starts writing this worker's heartbeat (the database's clock, so workers on
 * machines whose clocks differ agree).
 *
 * @example
 * const beats = await startHeartbeats(url, 'worker-1', 'agentchart-chats', 1_000);
 */
export async function startHeartbeats(databaseUrl: string, executorId: string, queue: string, intervalMs: number): Promise<WorkerHeartbeats> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', () => undefined);
  await pool.query(TABLE_SQL);
  const beat = () =>
    pool.query(
      `INSERT INTO agentchart_workers VALUES ($1, $2, $3, (extract(epoch from clock_timestamp()) * 1000)::bigint)
       ON CONFLICT (executor_id) DO UPDATE SET queue = $2, pid = $3, heartbeat_at = EXCLUDED.heartbeat_at`,
      [executorId, queue, process.pid],
    );
  await beat();
  const timer = setInterval(() => void beat().catch(() => undefined), intervalMs);
  timer.unref?.();
  return {
    async claimSilent(silentMs) {
      const { rows } = await pool.query<{ executor_id: string }>(
        `DELETE FROM agentchart_workers
         WHERE queue = $1 AND executor_id <> $2 AND heartbeat_at < (extract(epoch from clock_timestamp()) * 1000)::bigint - $3
         RETURNING executor_id`,
        [queue, executorId, silentMs],
      );
      return rows.map((row) => row.executor_id);
    },
    async stop() {
      clearInterval(timer);
      await pool.query('DELETE FROM agentchart_workers WHERE executor_id = $1', [executorId]).catch(() => undefined);
      await pool.end();
    },
  };
}
