import {
  applyStateDelta,
  RunStoreError,
  type StateDelta,
  type StoredRun,
  type StoredRunKind,
  type StoredRunStatus,
  type StoredRunSummary,
  type ToolCallJournalEntry,
} from '@agentchart/core';

/** BIGINT columns come back as numbers (SQLite) or strings (Postgres' `pg`). */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

function toOptionalNumber(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : toNumber(value);
}

/** Parses a JSON column; a value that is not JSON is a `STORE_DATA_INVALID` error naming where. */
export function parseJsonColumn(text: unknown, where: string): unknown {
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(String(text));
  } catch (error) {
    throw new RunStoreError(
      'STORE_DATA_INVALID',
      `The stored ${where} is not valid JSON. The row was edited outside agentchart or damaged; restore it from a backup or delete the run.`,
      { where },
      { cause: error },
    );
  }
}

export function toSummary(row: Record<string, unknown>): StoredRunSummary {
  return {
    runId: String(row.run_id),
    kind: row.kind as StoredRunKind,
    name: String(row.name),
    status: row.status as StoredRunStatus,
    version: toNumber(row.version),
    leaseOwner: row.lease_owner === null || row.lease_owner === undefined ? undefined : String(row.lease_owner),
    leaseToken: toNumber(row.lease_token),
    leaseExpiresAt: toOptionalNumber(row.lease_expires_at),
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

/** The version a run's `state` column was written at (the deltas after it build on it). */
export function stateVersionOf(row: Record<string, unknown>): number {
  return row.state_version === null || row.state_version === undefined ? toNumber(row.version) : toNumber(row.state_version);
}

/**
 * A run's row, and the delta rows of the versions after its whole checkpoint
 * (`deltaRows`, in version order): its state is the whole checkpoint with
 * them applied. Delta rows that are missing, out of order, or not this
 * chain's are a `STORE_DATA_INVALID` error naming the run.
 */
export function toStoredRun(row: Record<string, unknown>, deltaRows: readonly Record<string, unknown>[] = []): StoredRun {
  const summary = toSummary(row);
  const where = `state of run "${summary.runId}"`;
  const state = parseJsonColumn(row.state, where);
  if (deltaRows.length === 0 && stateVersionOf(row) === summary.version) return { ...summary, state };
  const stateVersion = stateVersionOf(row);
  const deltas = deltaRows.map((deltaRow, index) => {
    const delta = parseJsonColumn(deltaRow.delta, `delta ${String(deltaRow.version)} of run "${summary.runId}"`) as StateDelta | null;
    const step = index + 1;
    if (toNumber(deltaRow.version) !== stateVersion + step || delta?.step !== step || !Array.isArray(delta.ops)) {
      throw damagedChain(
        summary.runId,
        `delta row ${index + 1} of ${deltaRows.length} is not step ${step} after the whole checkpoint (version ${stateVersion})`,
      );
    }
    return delta;
  });
  if (stateVersion + deltas.length !== summary.version) {
    throw damagedChain(
      summary.runId,
      `it is at version ${summary.version}, and its whole checkpoint (version ${stateVersion}) with ${deltas.length} delta rows reaches version ${stateVersion + deltas.length}: delta rows were removed`,
    );
  }
  let rebuilt = state;
  try {
    for (const delta of deltas) rebuilt = applyStateDelta(rebuilt, delta);
  } catch (error) {
    throw damagedChain(summary.runId, `a delta row does not apply to its checkpoint (${(error as Error).message})`, error);
  }
  return { ...summary, state: rebuilt, stateChain: { base: parseJsonColumn(row.state, where), deltas } };
}

function damagedChain(runId: string, why: string, cause?: unknown): RunStoreError {
  return new RunStoreError(
    'STORE_DATA_INVALID',
    `The stored checkpoint of run "${runId}" is damaged: ${why}. The rows were edited outside agentchart or damaged; restore them from a backup or delete the run.`,
    { runId, where: `state of run "${runId}"` },
    cause === undefined ? undefined : { cause },
  );
}

export function toJournalEntry(row: Record<string, unknown>): ToolCallJournalEntry {
  const runId = String(row.run_id);
  const callId = String(row.call_id);
  return {
    runId,
    callId,
    toolName: String(row.tool_name),
    argumentsHash: String(row.arguments_hash),
    idempotencyKey: String(row.idempotency_key),
    status: row.status === 'finished' ? 'finished' : 'started',
    result: parseJsonColumn(row.result, `result of call "${callId}" of run "${runId}"`),
    startedToken: toNumber(row.started_token),
    startedAt: toNumber(row.started_at),
    finishedAt: toOptionalNumber(row.finished_at),
  };
}
