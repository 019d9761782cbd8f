import type { JournalWrite, RunWriteBatch } from '@agentchart/core';
import type { SqlRows, SqlStatement } from './sqlDriver.js';
import { LEASE_IS_CURRENT } from './statements.js';

/** What a started call's journal entry returns of its start (what a result's entry needs). */
const STARTED_COLUMNS = 'tool_name, arguments_hash, idempotency_key, started_token, started_at';

/** A batch as one statement, and how to read its one row back as the rows of the batch's statements. */
export interface OneStatementBatch extends SqlStatement {
  /**
   * The rows each statement of the same batch run one by one would have
   * returned (`SqlRunStore.writeBatch` reads them): the fence first (its
   * version, or no row when it did not pass), a checkpoint's second
   * statement, then each journal write's.
   */
  read(row: Record<string, unknown>): SqlRows[];
}

/**
 * A batch (`RunStore.writeBatch`, its fence's four parameters given) as one
 * statement for a database whose `WITH` runs writes (Postgres): the fence's
 * UPDATE first, every other write reading its row, so none changes
 * anything unless the fence passed, and the statement is its own
 * transaction: one round trip and one commit, with or without a pipelining
 * pool; a batch that gives the lease up does it in the fence's UPDATE.
 * Every part of one statement sees the database as it was before it,
 * so a batch that writes one call twice (its start and its result, or two
 * starts) has no such form: `undefined`, and it runs as statements in a
 * transaction.
 *
 * @example
 * const one = oneStatementBatch(fenced, { state: { status: 'running', delta }, journal: [{ kind: 'result', callId, result }] }, texts);
 * if (one !== undefined) results = one.read((await driver.query(one.sql, one.params)).rows[0]!);
 */
export function oneStatementBatch(
  fenced: readonly [string, string, number, number],
  batch: RunWriteBatch,
  stateText: string | undefined,
  resultTexts: readonly string[],
): OneStatementBatch | undefined {
  const writes = batch.journal ?? [];
  const callIds = new Set(writes.map(callIdOf));
  if (callIds.size < writes.length) return undefined;
  const state = batch.state;
  const params: unknown[] = [...fenced];
  if (state !== undefined) params.push(state.status, stateText);
  writes.forEach((write, index) => {
    if (write.kind === 'started') params.push(write.start.callId, write.start.toolName, write.start.argumentsHash, write.start.idempotencyKey);
    else params.push(resultTexts[index], write.callId);
  });
  const shape: Shape = `${state === undefined ? 'touch' : 'delta' in state ? 'delta' : 'whole'}${batch.release === true ? '+release' : ''}:${writes.map((write) => (write.kind === 'started' ? 's' : 'r')).join('')}`;
  const stateParts = state === undefined ? 1 : 2;
  return {
    sql: textOf(shape),
    params,
    read(row) {
      const fencedRows = row.version === null || row.version === undefined ? [] : [{ version: row.version }];
      const results: SqlRows[] = [{ rows: fencedRows, changes: fencedRows.length }];
      if (stateParts === 2) results.push({ rows: [], changes: Number(row.state_row) });
      writes.forEach((write, index) => {
        const value = row[`journal_${index}`];
        if (write.kind === 'started') results.push({ rows: [], changes: Number(value) });
        else
          results.push(value === null || value === undefined ? { rows: [], changes: 0 } : { rows: [value as Record<string, unknown>], changes: 1 });
      });
      return results;
    },
  };
}

/** A batch's form: its checkpoint's kind (and `+release` when it gives the lease up), then one letter a journal write (`s` a start, `r` a result). */
type Shape = `${'touch' | 'delta' | 'whole'}${'' | '+release'}:${string}`;

/** The texts of the forms met so far (a run's steps share a few). */
const texts = new Map<Shape, string>();
const MAX_TEXTS = 64;

function textOf(shape: Shape): string {
  let text = texts.get(shape);
  if (text === undefined) {
    text = buildText(shape);
    if (texts.size < MAX_TEXTS) texts.set(shape, text);
  }
  return text;
}

/** The statement of a form, its parameters numbered in the order `oneStatementBatch` gives them. */
function buildText(shape: Shape): string {
  const [form, letters] = shape.split(':') as [string, string];
  const [kind, release] = form.split('+') as ['touch' | 'delta' | 'whole', string | undefined];
  // The lease given up by the fence's own UPDATE: the writes after it read the fence, not the lease.
  const released = release === undefined ? '' : ', lease_owner = NULL, lease_expires_at = NULL';
  let next = 4;
  const param = () => `$${++next}`;
  const parts: string[] = [];
  if (kind === 'touch') {
    parts.push(`fence AS (UPDATE agentchart_runs SET updated_at = $4${released} WHERE ${LEASE_IS_CURRENT} RETURNING version)`);
  } else if (kind === 'delta') {
    parts.push(
      `fence AS (UPDATE agentchart_runs SET status = ${param()}, version = version + 1, updated_at = $4${released} WHERE ${LEASE_IS_CURRENT} RETURNING version)`,
      `state_row AS (INSERT INTO agentchart_state_deltas (run_id, version, delta) SELECT $1, version, ${param()} FROM fence RETURNING 1)`,
    );
  } else {
    parts.push(
      `fence AS (UPDATE agentchart_runs SET status = ${param()}, state = ${param()}, version = version + 1, state_version = version + 1, updated_at = $4${released} WHERE ${LEASE_IS_CURRENT} RETURNING version)`,
      'state_row AS (DELETE FROM agentchart_state_deltas WHERE run_id = $1 AND version <= (SELECT version FROM fence) RETURNING 1)',
    );
  }
  const columns = ['(SELECT version FROM fence) AS version'];
  if (kind !== 'touch') columns.push('(SELECT count(*) FROM state_row)::int AS state_row');
  let starts = 0;
  [...letters].forEach((letter, index) => {
    const name = `journal_${index}`;
    if (letter === 's') {
      starts += 1; // each start of the batch takes the next number after the journal's last (a start already journaled leaves a gap)
      parts.push(
        `${name} AS (INSERT INTO agentchart_tool_calls (run_id, call_id, seq, tool_name, arguments_hash, idempotency_key, status, result, started_token, started_at, finished_at)
          SELECT CAST($1 AS TEXT), CAST(${param()} AS TEXT), (SELECT COALESCE(MAX(seq), 0) + ${starts} FROM agentchart_tool_calls WHERE run_id = $1),
            CAST(${param()} AS TEXT), CAST(${param()} AS TEXT), CAST(${param()} AS TEXT), 'started', NULL, CAST($3 AS BIGINT), CAST($4 AS BIGINT), NULL
          FROM fence ON CONFLICT (run_id, call_id) DO NOTHING RETURNING 1)`,
      );
      columns.push(`(SELECT count(*) FROM ${name})::int AS ${name}`);
    } else {
      const result = param();
      parts.push(
        `${name} AS (UPDATE agentchart_tool_calls SET status = 'finished', result = ${result}, finished_at = $4
          WHERE run_id = $1 AND call_id = ${param()} AND status = 'started' AND EXISTS (SELECT 1 FROM fence)
          RETURNING ${STARTED_COLUMNS})`,
      );
      columns.push(`(SELECT row_to_json(${name}) FROM ${name}) AS ${name}`);
    }
  });
  return `WITH ${parts.join(',\n')}\nSELECT ${columns.join(', ')}`;
}

function callIdOf(write: JournalWrite): string {
  return write.kind === 'started' ? write.start.callId : write.callId;
}
