import type { JournalWrite, RunLease, RunStore, StateWrite, StoredRunStatus, ToolCallJournalEntry } from '@agentchart/core';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import { CheckpointChain } from './checkpointChain.js';
import { type CheckpointSeal, JournalChain } from './checkpointSeal.js';

/** A checkpoint waiting to be written: its status, and how to build its JSON (only when it is written). */
interface PendingCheckpoint {
  status: StoredRunStatus;
  /**
   * Builds the checkpoint (unsigned), given the journal entries stored by
   * the time it is, for its seal: `undefined` when the writer does not sign
   * (an unsigned seal binds nothing).
   */
  build: (journal: CheckpointSeal['journal'] | undefined) => unknown;
}

/** What a journal write resolves to once committed. */
export type JournalWritten = { entry: ToolCallJournalEntry; created: boolean };

/** A journal write waiting in a group, with whoever awaits it. */
interface PendingJournalWrite {
  write: JournalWrite;
  resolve: (written: JournalWritten) => void;
  reject: (error: unknown) => void;
}

/**
 * The writes gathered for one transaction: the newest checkpoint, and the
 * journal writes in the order they were made. It stays open (more join it)
 * until its transaction starts.
 */
interface WriteGroup {
  checkpoint: PendingCheckpoint | undefined;
  journal: PendingJournalWrite[];
  /** The run's end (`RunWriter.end`): written whole, in place of any checkpoint queued after it, the lease given up with it. */
  end?: { state: StateWrite; resolve: () => void; reject: (error: unknown) => void };
  /** Starts the group's transaction as soon as the writes before it are done. */
  due: () => void;
}

/**
 * Every write of one run, one after the other, under the run's current
 * lease, by group commit: the writes made since the last transaction
 * started go together in the next one (`RunStore.writeBatch`), in which
 * only the newest checkpoint is written (it knows everything the older ones
 * knew) and the journal writes follow in their order. The checkpoints go
 * through the run's `CheckpointChain`: the first one whole, then (in a store
 * that takes them) each one as the delta from the one written before it,
 * signed when `snapshotKey` is given. A group is written
 * when something waits for it — a call's `started` entry, which must be
 * durable before its tool executes (`journal(write, true)`), an arbitrary
 * `write`, `idle()` — and otherwise soon (`setImmediate`: during the model
 * call that follows a tool, or right after a wait begins). So a checkpoint
 * is never stored after a journal entry made after it, a result is never
 * stored after the next checkpoint, and a quick step costs one transaction:
 * its tool's result, the checkpoints of the next model reply and batch
 * start, and the next call's `started` entry.
 *
 * A group that fails calls `onFailed` (the run must stop: it cannot be
 * resumed from where it is) and rejects the journal writes waiting in it;
 * later writes go on failing with the store's own error (a lost lease stays
 * lost).
 *
 * @example
 * const writer = new RunWriter(store, () => keeper.current(), (error) => failRun(error));
 * writer.checkpoint('running', () => snapshot);
 * const { entry, created } = await writer.journal({ kind: 'started', start }, true);
 */
export class RunWriter {
  readonly #store: RunStore;
  readonly lease: () => RunLease;
  readonly #onFailed: (error: unknown) => void;
  #chain: Promise<unknown> = Promise.resolve();
  /** The group gathering writes, whose transaction has not started. */
  #open: WriteGroup | undefined;
  /** The row's journal entries, in order: those there when the writer began (`journaled`), then those it wrote. */
  readonly #journaled: JournalChain;
  readonly #checkpoints: CheckpointChain;
  readonly #signs: boolean;

  constructor(
    store: RunStore,
    lease: () => RunLease,
    onFailed: (error: unknown) => void,
    journaled: Iterable<string> = [],
    snapshotKey?: SnapshotKey,
  ) {
    this.#store = store;
    this.lease = lease;
    this.#onFailed = onFailed;
    this.#journaled = new JournalChain(journaled);
    this.#checkpoints = new CheckpointChain(snapshotKey, store.stateDeltas === true);
    this.#signs = snapshotKey !== undefined;
  }

  /** Queues a checkpoint: it replaces the one not yet written, and is written soon. */
  checkpoint(status: StoredRunStatus, build: PendingCheckpoint['build']): void {
    this.#group().checkpoint = { status, build };
  }

  /**
   * Queues a journal write after every write made before it, in the same
   * transaction as the checkpoint queued before it. `now`: the write is
   * awaited (a call's `started` entry: its tool executes only once it is
   * stored), so its group is written at once; otherwise soon, or with the
   * next write that is awaited.
   */
  journal(write: JournalWrite, now: boolean): Promise<JournalWritten> {
    const group = this.#group();
    const written = new Promise<JournalWritten>((resolve, reject) => group.journal.push({ write, resolve, reject }));
    if (now) group.due();
    return written;
  }

  /**
   * Writes the run's end after every write queued before it (written at
   * once): a whole checkpoint, and the lease given up in the same
   * transaction (`releaseInBatch`; else `releaseLease` right after it). No
   * checkpoint is written after it. Rejects when it failed.
   */
  end(state: StateWrite): Promise<void> {
    this.#open?.due();
    this.#open = undefined; // the end is its own transaction, whenever the writes before it are written
    const group = this.#group();
    const ended = new Promise<void>((resolve, reject) => (group.end = { state, resolve, reject }));
    group.due();
    return ended;
  }

  /** Runs `write` after every write queued before it (written at once); its result or error is the caller's. */
  write<T>(write: () => Promise<T>): Promise<T> {
    this.#open?.due();
    this.#open = undefined; // a later checkpoint goes after this write
    const result = this.#chain.then(write);
    this.#chain = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  /** Writes what is queued at once; resolves once every write queued so far is done. */
  idle(): Promise<void> {
    this.#open?.due();
    return this.#chain.then(() => {});
  }

  /** The open group, or a new one queued after every write before it. */
  #group(): WriteGroup {
    if (this.#open !== undefined) return this.#open;
    let due!: () => void;
    const ready = new Promise<void>((resolve) => (due = resolve));
    const timer = setImmediate(due);
    const group: WriteGroup = {
      checkpoint: undefined,
      journal: [],
      due: () => {
        clearImmediate(timer);
        due();
      },
    };
    this.#open = group;
    this.#chain = this.#chain
      .then(() => ready)
      .then(() => {
        if (this.#open === group) this.#open = undefined;
        return this.#commit(group);
      });
    return group;
  }

  /** One transaction for a group; never rejects (a failure goes to `onFailed` and the writes waiting). */
  async #commit(group: WriteGroup): Promise<void> {
    try {
      const { checkpoint, journal, end } = group;
      // The entries this transaction starts are stored with its checkpoint: the checkpoint relies on them too.
      for (const pending of journal) if (pending.write.kind === 'started') this.#journaled.add(pending.write.start.callId);
      const state =
        end !== undefined
          ? end.state
          : checkpoint === undefined
            ? undefined
            : this.#checkpoints.next(checkpoint.status, checkpoint.build(this.#signs ? this.#journaled.seal() : undefined));
      const release = end !== undefined && this.#store.releaseInBatch === true;
      const lease = this.lease();
      const written = await this.#store.writeBatch(lease, {
        ...(state === undefined ? {} : { state }),
        journal: journal.map((pending) => pending.write),
        ...(release ? { release } : {}),
      });
      journal.forEach((pending, index) => pending.resolve(written.journal[index]!));
      if (end !== undefined && !release) await this.#store.releaseLease(lease);
      end?.resolve();
    } catch (error) {
      this.#checkpoints.reset();
      // An end that fails alone fails nothing: the run is over, and a new owner writes its end.
      if (group.end === undefined || group.checkpoint !== undefined || group.journal.length > 0) this.#onFailed(error);
      for (const pending of group.journal) pending.reject(error);
      group.end?.reject(error);
    }
  }
}
