import {
  diffState,
  RunSnapshotError,
  type StateDelta,
  type StateDeltaWrite,
  type StateWrite,
  type StoredRun,
  type StoredRunStatus,
  applyStateDelta,
} from '@agentchart/core';
import { type SnapshotKey, signSnapshot, verifySnapshot } from '../agent/run/snapshotSignature.js';

/** After this many deltas the next checkpoint is whole again, so a resume never applies more. */
const MAX_DELTAS = 1_000;

/**
 * The checkpoints one writer stores for a row, as a chain: the first whole
 * (signed as a snapshot when the run or chat signs), each later one as the
 * delta from the one written before it (`diffState`: new transcript and
 * journal entries, the small state that moved). A signed delta's signature
 * covers the signature of the checkpoint before it, its step and its
 * operations, so the last one binds the whole history of the row: a delta
 * changed, dropped, moved or put in another order no longer verifies.
 *
 * A state given to `next` is kept as the base of the next delta: the
 * checkpoints share what did not change (the steps replace, never mutate,
 * what they change), which is what makes a delta cheap to find.
 *
 * @example
 * const chain = new CheckpointChain(snapshotKey, store.stateDeltas === true);
 * await store.writeBatch(lease, { state: chain.next('running', checkpoint) });
 */
export class CheckpointChain {
  readonly #key: SnapshotKey | undefined;
  readonly #deltas: boolean;
  #last: unknown;
  #step = 0;
  #signature: string | undefined;

  constructor(key: SnapshotKey | undefined, deltas: boolean) {
    this.#key = key;
    this.#deltas = deltas;
  }

  /** The write of `state` (unsigned): whole the first time (and every `MAX_DELTAS`), a delta after. */
  next(status: StoredRunStatus, state: unknown): StateWrite | StateDeltaWrite {
    const whole = !this.#deltas || this.#last === undefined || this.#step >= MAX_DELTAS;
    const previous = this.#last;
    this.#last = state;
    if (whole) {
      this.#step = 0;
      if (this.#key === undefined) return { status, state };
      const signed = signSnapshot(state as object, this.#key);
      this.#signature = signed.signature;
      return { status, state: signed };
    }
    this.#step += 1;
    const ops = diffState(previous, state);
    if (this.#key === undefined) return { status, delta: { step: this.#step, ops } };
    const { signature } = signSnapshot({ previous: this.#signature, step: this.#step, ops }, this.#key);
    this.#signature = signature;
    return { status, delta: { step: this.#step, ops, signature } };
  }

  /** After a failed write: the next checkpoint is whole (what is stored is not known for sure). */
  reset(): void {
    this.#last = undefined;
  }
}

/**
 * The checkpoint stored in a row, its signature checked when `key` signs:
 * a whole one as stored; a chain (`stored.stateChain`) rebuilt from its
 * whole checkpoint once that and every delta after it verify, in order
 * (`SNAPSHOT_TAMPERED` otherwise). The result still carries the whole
 * checkpoint's `signature` field: a caller drops it with the seal.
 *
 * @example
 * const state = verifiedStoredState(stored, snapshotKey, 'stored run');
 */
export function verifiedStoredState(stored: Pick<StoredRun, 'state' | 'stateChain'>, key: SnapshotKey | undefined, what: string): unknown {
  if (key === undefined) return stored.state;
  const chain = stored.stateChain;
  if (chain === undefined) {
    verifySnapshot(stored.state, key, what);
    return stored.state;
  }
  verifySnapshot(chain.base, key, what);
  let previous = (chain.base as { signature: string }).signature;
  let state: unknown = chain.base;
  for (const delta of chain.deltas) {
    verifyLink(delta, previous, key, what);
    previous = delta.signature!;
    state = applyStateDelta(state, delta);
  }
  return state;
}

function verifyLink(delta: StateDelta, previous: string, key: SnapshotKey, what: string): void {
  try {
    verifySnapshot({ previous, step: delta.step, ops: delta.ops, signature: delta.signature }, key, what);
  } catch (error) {
    throw new RunSnapshotError(
      'SNAPSHOT_TAMPERED',
      `The ${what}'s checkpoint delta ${delta.step} does not verify after the checkpoint before it: a delta was changed, removed, moved from another row or reordered. It is refused; nothing ran.`,
      { step: delta.step, cause: (error as Error).message },
    );
  }
}
