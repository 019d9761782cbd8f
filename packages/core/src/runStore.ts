import type { StateDelta } from './stateDelta.js';

/**
 * The durable store of runs and chats: their state as versioned JSON, owner
 * leases with fencing tokens, and the tool-call journal. An interface only
 * (no I/O here); `@agentchart/store/sqlite` and `@agentchart/store/postgres`
 * implement it, and one contract test suite checks both.
 *
 * Every write takes the `RunLease` it was made under. The store accepts it
 * only while that lease is the current one (its fencing token is the latest
 * issued for the run and it has not expired); otherwise it throws
 * `RunLeaseLostError` and changes nothing, so an owner that was paused past
 * its lease can neither checkpoint nor record a tool call.
 */

/** What a stored record is: an agent run or a group chat. */
export type StoredRunKind = 'run' | 'chat';

/**
 * Where a stored run is: `running` (a step is under way or next),
 * `waiting` (for a person: an approval, a human turn), `finished` (it ended,
 * whatever the stop reason). `listUnfinished` lists the first two.
 */
export type StoredRunStatus = 'running' | 'waiting' | 'finished';

/** A lease on one run: the right to write it until `expiresAt`, under `token`. */
export interface RunLease {
  readonly runId: string;
  readonly owner: string;
  /** The fencing token: grows by one each time the run changes hands. */
  readonly token: number;
  /** Milliseconds since the epoch (the store's clock). */
  readonly expiresAt: number;
}

/** A run or chat as stored, with its current lease holder (if any). */
export interface StoredRun {
  readonly runId: string;
  readonly kind: StoredRunKind;
  /** The agent's or the chat's name, so a process knows which one resumes it. */
  readonly name: string;
  readonly status: StoredRunStatus;
  /** Grows by one with every `saveState`; 0 before the first. */
  readonly version: number;
  /**
   * The checkpoint (JSON), `undefined` before the first: the last whole one
   * with the deltas written after it applied.
   */
  readonly state: unknown;
  /**
   * How `state` was stored when it is more than one row: the last whole
   * checkpoint (`base`, as written) and the deltas written after it, in
   * order. Absent when `state` is one whole checkpoint.
   */
  readonly stateChain?: StoredStateChain;
  readonly leaseOwner: string | undefined;
  readonly leaseToken: number;
  readonly leaseExpiresAt: number | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A checkpoint stored as a whole one and the deltas after it (see `StoredRun.stateChain`). */
export interface StoredStateChain {
  readonly base: unknown;
  readonly deltas: readonly StateDelta[];
}

/** A stored run without its state: what `listUnfinished` returns. */
export type StoredRunSummary = Omit<StoredRun, 'state' | 'stateChain'>;

/** One tool call in the journal: recorded before it executes, completed after. */
export interface ToolCallJournalEntry {
  readonly runId: string;
  /** The run-unique call id (see the agent's call ids). */
  readonly callId: string;
  readonly toolName: string;
  /** A hash of the call's arguments, to tell a re-made call from another call with the same id. */
  readonly argumentsHash: string;
  /** The key `execute` receives as `ctx.idempotencyKey`: the same on every attempt of this call. */
  readonly idempotencyKey: string;
  /** `started`: recorded before execution, no result yet (in doubt after a crash). */
  readonly status: 'started' | 'finished';
  /** The recorded result (JSON), once finished. */
  readonly result: unknown;
  /** The fencing token of the lease the call was started under. */
  readonly startedToken: number;
  readonly startedAt: number;
  readonly finishedAt: number | undefined;
}

/** What `recordCallStarted` records. */
export interface ToolCallStart {
  callId: string;
  toolName: string;
  argumentsHash: string;
  idempotencyKey: string;
}

/** What `createRun` creates. */
export interface NewStoredRun {
  runId: string;
  kind: StoredRunKind;
  name: string;
  /** Who takes the first lease (a process or worker id). */
  owner: string;
  /** How long the first lease lasts, in milliseconds. */
  leaseMs: number;
}

/** What `saveState` writes: a whole checkpoint (the deltas written before it are dropped). */
export interface StateWrite {
  status: StoredRunStatus;
  /** JSON-serialisable. */
  state: unknown;
}

/**
 * A checkpoint written as what changed since the one before it (only to a
 * store with `stateDeltas`): `delta.step` is one more than the last delta's,
 * 1 after a whole checkpoint.
 */
export interface StateDeltaWrite {
  status: StoredRunStatus;
  delta: StateDelta;
}

/** One journal write of a `writeBatch`: a call recorded as started, or a started call's result. */
export type JournalWrite =
  | { readonly kind: 'started'; readonly start: ToolCallStart }
  | { readonly kind: 'result'; readonly callId: string; readonly result: unknown };

/**
 * What `writeBatch` writes in one transaction, under one lease: the
 * checkpoint first (when there is one), then the journal writes in order.
 */
export interface RunWriteBatch {
  readonly state?: StateWrite | StateDeltaWrite;
  readonly journal?: readonly JournalWrite[];
  /**
   * Gives the lease up in the same transaction, after the writes (as
   * `releaseLease` would): a run's end and its lease released in one
   * commit. Only for a store with `releaseInBatch`.
   */
  readonly release?: boolean;
}

/** What `writeBatch` wrote. */
export interface RunWriteBatchResult {
  /** The run's new version when the batch had a checkpoint. */
  readonly version: number | undefined;
  /**
   * One per journal write, in order. `created` is true when this write
   * recorded it; false when the journal already had the call (a start) or
   * its result (a result): `entry` then says what is recorded.
   */
  readonly journal: readonly { entry: ToolCallJournalEntry; created: boolean }[];
}

/**
 * The store of durable runs and chats.
 *
 * @example
 * const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'worker-1', leaseMs: 30_000 });
 * await store.saveState(lease, { status: 'running', state: checkpoint });
 * const { entry, created } = await store.recordCallStarted(lease, { callId, toolName, argumentsHash, idempotencyKey });
 * if (created) await store.recordCallResult(lease, callId, await execute());
 */
export interface RunStore {
  /**
   * Whether `writeBatch` takes checkpoints written as deltas
   * (`StateDeltaWrite`); without it, every checkpoint is written whole.
   */
  readonly stateDeltas?: boolean;
  /** Whether `writeBatch` takes `release` (gives the lease up in the batch's transaction); without it, `releaseLease` follows. */
  readonly releaseInBatch?: boolean;
  /** Creates a run with its first lease (token 1). Throws `RunStoreError` `RUN_ALREADY_EXISTS` when the id is taken. */
  createRun(run: NewStoredRun): Promise<RunLease>;
  /**
   * Takes the lease of an existing run for `owner`: when it has no owner, its
   * lease expired, or `owner` already holds it. The fencing token grows by one
   * every time. Throws `RunOwnedElsewhereError` while another owner's lease
   * holds, `RunStoreError` `RUN_NOT_FOUND` when there is no such run.
   */
  acquireLease(runId: string, owner: string, leaseMs: number): Promise<RunLease>;
  /** Extends a lease that is still current (same token); throws `RunLeaseLostError` otherwise. */
  renewLease(lease: RunLease, leaseMs: number): Promise<RunLease>;
  /** Gives a current lease up (another owner may take the run at once); a lease that is no longer current is left as is. */
  releaseLease(lease: RunLease): Promise<void>;
  /** Writes a checkpoint under a current lease; returns the new version. Throws `RunLeaseLostError` otherwise. */
  saveState(lease: RunLease, write: StateWrite): Promise<number>;
  /** The stored run, or `undefined`. */
  loadRun(runId: string): Promise<StoredRun | undefined>;
  /** Every run and chat not `finished`, oldest first (optionally of one kind). */
  listUnfinished(kind?: StoredRunKind): Promise<StoredRunSummary[]>;
  /**
   * Records a call as started before it executes, under a current lease.
   * When the call is already in the journal, nothing is written and
   * `created` is false: the entry says whether it finished (use its result)
   * or is in doubt. Throws `RunLeaseLostError` when the lease is not current.
   */
  recordCallStarted(lease: RunLease, start: ToolCallStart): Promise<{ entry: ToolCallJournalEntry; created: boolean }>;
  /**
   * Records the result of a started call, under a current lease. A call that
   * already has a result keeps its first one (the returned entry has it).
   * Throws `RunStoreError` `CALL_NOT_STARTED` for a call never started.
   */
  recordCallResult(lease: RunLease, callId: string, result: unknown): Promise<ToolCallJournalEntry>;
  /**
   * Writes a checkpoint and the journal writes beside it in one
   * transaction, under one lease (one round of fencing for all of them).
   * Each journal write behaves as `recordCallStarted` / `recordCallResult`
   * would. Throws `RunLeaseLostError`, with nothing written, when the lease
   * is not current. A result of a call neither in the journal nor started
   * earlier in the batch changes nothing and throws `RunStoreError`
   * `CALL_NOT_STARTED` once the batch is committed (its other writes stand).
   */
  writeBatch(lease: RunLease, batch: RunWriteBatch): Promise<RunWriteBatchResult>;
  /** The journal of one run, in the order the calls were recorded as started. */
  listCalls(runId: string): Promise<ToolCallJournalEntry[]>;
  /** Closes the connection(s). */
  close(): Promise<void>;
}
