import type { RunLease, RunStore, StoredRunStatus } from '@agentchart/core';

/** A checkpoint waiting to be written: its status, and how to build its JSON (only when it is written). */
interface PendingCheckpoint {
  status: StoredRunStatus;
  build: () => unknown;
}

/**
 * Every write of one run, one after the other, under the run's current
 * lease: checkpoints and journal entries in the order the run made them.
 * Consecutive checkpoints not yet written collapse into the newest (two
 * checkpoint points of one step cost one write), but never across a journal
 * write: a checkpoint is stored before any journal entry that follows it, so
 * a call is never recorded as started under a state that does not know its
 * batch. A write that fails calls `onFailed` (the run must stop: it cannot
 * be resumed from where it is), then later writes go on failing with the
 * store's own error (a lost lease stays lost).
 *
 * @example
 * const writer = new RunWriter(store, () => keeper.current(), (error) => failRun(error));
 * writer.checkpoint('running', () => snapshot);
 * await writer.write(() => store.recordCallStarted(writer.lease(), start));
 */
export class RunWriter {
  readonly #store: RunStore;
  readonly lease: () => RunLease;
  readonly #onFailed: (error: unknown) => void;
  #chain: Promise<unknown> = Promise.resolve();
  /** The checkpoint queued and not started yet, which a newer one replaces. */
  #open: { checkpoint: PendingCheckpoint } | undefined;

  constructor(store: RunStore, lease: () => RunLease, onFailed: (error: unknown) => void) {
    this.#store = store;
    this.lease = lease;
    this.#onFailed = onFailed;
  }

  /** Queues a checkpoint (collapsing into a queued one that has not started). */
  checkpoint(status: StoredRunStatus, build: () => unknown): void {
    if (this.#open !== undefined) {
      this.#open.checkpoint = { status, build };
      return;
    }
    const slot = { checkpoint: { status, build } };
    this.#open = slot;
    void this.write(async () => {
      if (this.#open === slot) this.#open = undefined;
      try {
        await this.#store.saveState(this.lease(), { status: slot.checkpoint.status, state: slot.checkpoint.build() });
      } catch (error) {
        this.#onFailed(error);
      }
    }, true).catch(() => {});
  }

  /** Runs `write` after every write queued before it; its result or error is the caller's. */
  write<T>(write: () => Promise<T>, keepOpen = false): Promise<T> {
    if (!keepOpen) this.#open = undefined; // a later checkpoint goes after this write
    const result = this.#chain.then(write);
    this.#chain = result.then(
      () => {},
      () => {},
    );
    return result;
  }

  /** Resolves once every write queued so far is done. */
  idle(): Promise<void> {
    return this.#chain.then(() => {});
  }
}
