import {
  RunStoreError,
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

export function toStoredRun(row: Record<string, unknown>): StoredRun {
  const summary = toSummary(row);
  return { ...summary, state: parseJsonColumn(row.state, `state of run "${summary.runId}"`) };
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
