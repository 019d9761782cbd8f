import {
  ConfigurationError,
  type JournalWrite,
  type NewStoredRun,
  type RunLease,
  RunLeaseLostError,
  RunOwnedElsewhereError,
  type RunStore,
  RunStoreError,
  type RunWriteBatch,
  type RunWriteBatchResult,
  type StateDeltaWrite,
  type StateWrite,
  type StoredRun,
  type StoredRunKind,
  type StoredRunSummary,
  type ToolCallJournalEntry,
  type ToolCallStart,
} from '@agentchart/core';
import { stateVersionOf, toJournalEntry, toNumber, toStoredRun, toSummary } from './rows.js';
import { oneStatementBatch } from './oneStatementBatch.js';
import type { SqlDriver, SqlRows, SqlStatement } from './sqlDriver.js';
import { SQL } from './statements.js';

/** The clock the store's leases are measured against (tests pass a fake one). */
export type StoreClock = () => number;

/**
 * `RunStore` over any `SqlDriver`: the SQLite and Postgres stores are this
 * class with their driver. Every fenced write is one statement, but a
 * checkpoint's: its fenced UPDATE and its delta row (or, for a whole one,
 * the dropping of the deltas it replaces), in one transaction, which on
 * Postgres is one statement too (`oneStatementBatch`), journal writes
 * beside it included.
 */
export class SqlRunStore implements RunStore {
  readonly stateDeltas = true;
  readonly releaseInBatch = true;

  constructor(
    private readonly driver: SqlDriver,
    private readonly now: StoreClock,
  ) {}

  async createRun(run: NewStoredRun): Promise<RunLease> {
    checkLeaseMs(run.leaseMs);
    const now = this.now();
    const expiresAt = now + run.leaseMs;
    const { changes } = await this.driver.query(SQL.createRun, [run.runId, run.kind, run.name, run.owner, expiresAt, now]);
    if (changes === 0) {
      throw new RunStoreError(
        'RUN_ALREADY_EXISTS',
        `The store already has a run "${run.runId}". Resume it (acquire its lease), or create the run under a new id.`,
        {
          runId: run.runId,
        },
      );
    }
    return { runId: run.runId, owner: run.owner, token: 1, expiresAt };
  }

  async acquireLease(runId: string, owner: string, leaseMs: number): Promise<RunLease> {
    checkLeaseMs(leaseMs);
    const now = this.now();
    const expiresAt = now + leaseMs;
    const { rows } = await this.driver.query(SQL.acquireLease, [runId, owner, expiresAt, now]);
    if (rows.length > 0) return { runId, owner, token: toNumber(rows[0]!.lease_token), expiresAt };
    const current = await this.loadSummary(runId);
    if (current === undefined) throw notFound(runId);
    throw new RunOwnedElsewhereError(runId, current.leaseOwner ?? '(unknown)', current.leaseExpiresAt ?? now);
  }

  async renewLease(lease: RunLease, leaseMs: number): Promise<RunLease> {
    checkLeaseMs(leaseMs);
    const now = this.now();
    const expiresAt = now + leaseMs;
    const { changes } = await this.driver.query(SQL.renewLease, [...fence(lease, now), expiresAt]);
    if (changes === 0) throw await this.lost(lease);
    return { ...lease, expiresAt };
  }

  async releaseLease(lease: RunLease): Promise<void> {
    await this.driver.query(SQL.releaseLease, [lease.runId, lease.owner, lease.token]);
  }

  async saveState(lease: RunLease, write: StateWrite): Promise<number> {
    const [written] = await this.#runBatch(fence(lease, this.now()), { state: write }, []);
    if (written!.rows.length === 0) throw await this.lost(lease);
    return toNumber(written!.rows[0]!.version);
  }

  /**
   * The run's row, then (when its checkpoint is a chain) the delta rows of
   * the versions it names. Two reads: a whole checkpoint written between
   * them drops the deltas the first one named, so a chain that does not
   * add up is read again before it is called damaged.
   */
  async loadRun(runId: string): Promise<StoredRun | undefined> {
    for (let attempt = 1; ; attempt++) {
      const { rows } = await this.driver.query(SQL.loadRun, [runId]);
      const row = rows[0];
      if (row === undefined) return undefined;
      const stateVersion = stateVersionOf(row);
      const version = toNumber(row.version);
      if (stateVersion === version) return toStoredRun(row);
      const deltas = (await this.driver.query(SQL.loadDeltas, [runId, stateVersion, version])).rows;
      try {
        return toStoredRun(row, deltas);
      } catch (error) {
        if (attempt >= 3 || !(error instanceof RunStoreError)) throw error;
      }
    }
  }

  async listUnfinished(kind?: StoredRunKind): Promise<StoredRunSummary[]> {
    const { rows } = kind === undefined ? await this.driver.query(SQL.listUnfinished) : await this.driver.query(SQL.listUnfinishedOfKind, [kind]);
    return rows.map(toSummary);
  }

  async recordCallStarted(lease: RunLease, start: ToolCallStart): Promise<{ entry: ToolCallJournalEntry; created: boolean }> {
    const now = this.now();
    const { changes } = await this.driver.query(SQL.recordCallStarted, startParams(fence(lease, now), start));
    if (changes > 0) return { entry: startedEntry(lease, start, now), created: true };
    await this.checkCurrent(lease);
    const existing = await this.loadCall(lease.runId, start.callId);
    if (existing === undefined) throw await this.lost(lease); // the lease lapsed between the two statements
    return { entry: existing, created: false };
  }

  async recordCallResult(lease: RunLease, callId: string, result: unknown): Promise<ToolCallJournalEntry> {
    const now = this.now();
    const text = JSON.stringify(result ?? null);
    const { rows } = await this.driver.query(SQL.recordCallResult, [...fence(lease, now), callId, text]);
    if (rows[0] !== undefined) return finishedEntry(lease.runId, callId, rows[0], result, text, now);
    await this.checkCurrent(lease);
    const existing = await this.loadCall(lease.runId, callId);
    if (existing === undefined) throw callNotStarted(lease.runId, callId);
    return existing;
  }

  /**
   * One transaction (`SqlDriver.batch`): the fence first — the checkpoint's
   * own fenced UPDATE, or `touchLease` when there is none — then the journal
   * writes in order, each fenced too, then (`release`) the lease given
   * up. Once the fence passed, the run's row
   * is locked (SQLite: the whole database, `BEGIN IMMEDIATE`; Postgres: the
   * row the UPDATE reached) until the commit, so the lease cannot change
   * under the later statements; when it did not pass, none of them changes
   * anything. A journal write that changed nothing (a call already started,
   * a result already recorded) is read back after the commit.
   */
  async writeBatch(lease: RunLease, batch: RunWriteBatch): Promise<RunWriteBatchResult> {
    const now = this.now();
    const fenced = fence(lease, now);
    const first = batch.state === undefined ? 1 : 2;
    const writes = batch.journal ?? [];
    const texts = writes.map((write) => (write.kind === 'result' ? JSON.stringify(write.result ?? null) : ''));
    const results = await this.#runBatch(fenced, batch, texts);
    if (results[0]!.changes === 0) throw await this.lost(lease);
    const journal: { entry: ToolCallJournalEntry; created: boolean }[] = [];
    for (const [index, write] of writes.entries()) {
      const written = results[index + first]!;
      if (write.kind === 'started' && written.changes > 0) {
        journal.push({ entry: startedEntry(lease, write.start, now), created: true });
        continue;
      }
      if (write.kind === 'result' && written.rows[0] !== undefined) {
        journal.push({ entry: finishedEntry(lease.runId, write.callId, written.rows[0], write.result, texts[index]!, now), created: true });
        continue;
      }
      const callId = write.kind === 'started' ? write.start.callId : write.callId;
      const existing = await this.loadCall(lease.runId, callId);
      if (existing === undefined) throw callNotStarted(lease.runId, callId);
      journal.push({ entry: existing, created: false });
    }
    return { version: batch.state === undefined ? undefined : toNumber(results[0]!.rows[0]!.version), journal };
  }

  /**
   * The statements of a batch, in one transaction: as one statement where
   * the database writes inside `WITH` and the batch has that form (one
   * round trip), else one by one. Returns each statement's rows.
   */
  #runBatch(fenced: Fence, batch: RunWriteBatch, resultTexts: readonly string[]): Promise<SqlRows[]> {
    const writes = batch.journal ?? [];
    const state = batch.state;
    if (this.driver.writesInWith === true) {
      const stateText = state === undefined ? undefined : JSON.stringify('delta' in state ? state.delta : (state.state ?? null));
      const one = oneStatementBatch(fenced, batch, stateText, resultTexts);
      if (one !== undefined) return this.driver.query(one.sql, one.params).then(({ rows }) => one.read(rows[0]!));
    }
    const first = state === undefined ? [{ sql: SQL.touchLease, params: fenced }] : stateStatements(fenced, state);
    const statements = [...first, ...writes.map((write, index) => journalStatement(fenced, write, resultTexts[index]!))];
    // Last, so the results keep the order `writeBatch` reads; in the same transaction, fenced like the rest.
    if (state !== undefined && 'delta' in state) statements.push({ sql: SQL.saveChangedStatus, params: [...fenced, state.status] });
    // After every fenced statement: a lease given up fences nothing more.
    if (batch.release === true) statements.push({ sql: SQL.releaseLease, params: [fenced[0], fenced[1], fenced[2]] });
    return this.driver.batch(statements);
  }

  async listCalls(runId: string): Promise<ToolCallJournalEntry[]> {
    const { rows } = await this.driver.query(SQL.listCalls, [runId]);
    return rows.map(toJournalEntry);
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  private async loadSummary(runId: string): Promise<StoredRunSummary | undefined> {
    const { rows } = await this.driver.query(SQL.loadRun, [runId]);
    return rows[0] === undefined ? undefined : toSummary(rows[0]);
  }

  private async loadCall(runId: string, callId: string): Promise<ToolCallJournalEntry | undefined> {
    const { rows } = await this.driver.query(SQL.loadCall, [runId, callId]);
    return rows[0] === undefined ? undefined : toJournalEntry(rows[0]);
  }

  private async checkCurrent(lease: RunLease): Promise<void> {
    const { rows } = await this.driver.query(SQL.leaseIsCurrent, fence(lease, this.now()));
    if (rows.length === 0) throw await this.lost(lease);
  }

  /** The error for a write refused by its fence: not found, or the lease lost (with who holds the run now). */
  private async lost(lease: RunLease): Promise<Error> {
    const current = await this.loadSummary(lease.runId);
    if (current === undefined) return notFound(lease.runId);
    return new RunLeaseLostError(lease.runId, lease.owner, lease.token, {
      currentOwner: current.leaseOwner ?? null,
      currentFence: current.leaseToken,
      currentExpiresAt: current.leaseExpiresAt ?? null,
    });
  }
}

/**
 * The statements of a checkpoint, the fenced UPDATE first (its row count
 * says whether the fence passed; it returns the new version): a whole one
 * drops the deltas it replaces, a delta adds its row (its status follows
 * the batch's journal writes: `SQL.saveChangedStatus`).
 */
function stateStatements(fenced: Fence, write: StateWrite | StateDeltaWrite): SqlStatement[] {
  if ('delta' in write) {
    return [
      { sql: SQL.saveDeltaVersion, params: fenced },
      { sql: SQL.insertDelta, params: [...fenced, JSON.stringify(write.delta)] },
    ];
  }
  return [
    { sql: SQL.saveState, params: [...fenced, write.status, JSON.stringify(write.state ?? null)] },
    { sql: SQL.dropReplacedDeltas, params: [fenced[0]] },
  ];
}

/** The fenced statement of one journal write of a batch (`resultText`: a result's JSON). */
function journalStatement(fenced: Fence, write: JournalWrite, resultText: string): SqlStatement {
  return write.kind === 'started'
    ? { sql: SQL.recordCallStarted, params: startParams(fenced, write.start) }
    : { sql: SQL.recordCallResult, params: [...fenced, write.callId, resultText] };
}

function startParams(fenced: Fence, start: ToolCallStart): unknown[] {
  return [...fenced, start.callId, start.toolName, start.argumentsHash, start.idempotencyKey];
}

/** The entry a start just recorded: all of it is the caller's, but the time and the lease's token. */
function startedEntry(lease: RunLease, start: ToolCallStart, now: number): ToolCallJournalEntry {
  return { runId: lease.runId, ...start, status: 'started', result: undefined, startedToken: lease.token, startedAt: now, finishedAt: undefined };
}

/**
 * The entry a result just finished: what its start recorded (`started`, the
 * row returned), and the result written (`resultText`, the JSON of
 * `result`), as a reader will read it back: the value itself when its JSON
 * reads back the same (a string, a finite number, a boolean, null), else
 * its JSON read.
 */
function finishedEntry(
  runId: string,
  callId: string,
  started: Record<string, unknown>,
  result: unknown,
  resultText: string,
  now: number,
): ToolCallJournalEntry {
  return {
    runId,
    callId,
    toolName: String(started.tool_name),
    argumentsHash: String(started.arguments_hash),
    idempotencyKey: String(started.idempotency_key),
    status: 'finished',
    result: readsBackAsItself(result) ? (result ?? null) : JSON.parse(resultText),
    startedToken: toNumber(started.started_token),
    startedAt: toNumber(started.started_at),
    finishedAt: now,
  };
}

function readsBackAsItself(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))
  );
}

function callNotStarted(runId: string, callId: string): RunStoreError {
  return new RunStoreError(
    'CALL_NOT_STARTED',
    `Call "${callId}" of run "${runId}" was never recorded as started, so it has no result to record. Record it with recordCallStarted before executing it.`,
    { runId, callId },
  );
}

/** A fenced write's first four parameters: run id, owner, token, now. */
type Fence = [string, string, number, number];

function fence(lease: RunLease, now: number): Fence {
  return [lease.runId, lease.owner, lease.token, now];
}

function notFound(runId: string): RunStoreError {
  return new RunStoreError('RUN_NOT_FOUND', `The store has no run "${runId}". Check the id (listUnfinished() lists the runs to resume).`, { runId });
}

function checkLeaseMs(leaseMs: number): void {
  if (!Number.isFinite(leaseMs) || leaseMs <= 0) {
    throw new ConfigurationError(`A lease lasts a positive, finite number of milliseconds (got ${leaseMs}). Pass e.g. 30_000.`, { leaseMs });
  }
}
