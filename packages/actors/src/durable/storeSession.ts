import { type FunctionMiddleware, type RunLease, type RunStore, RunStoreError, type ToolCallJournalEntry } from '@agentchart/core';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import { journalMiddleware } from './journalMiddleware.js';
import { keepLease } from './leaseKeeper.js';
import { RunWriter } from './runWriter.js';
import { type RecordResultOptions, recordedValue } from './recordedResult.js';

/**
 * What a run or a chat kept in the store runs with, whatever its kind: the
 * writer (checkpoints and journal entries in order, under the lease), the
 * journal middleware its tools go through, the tools still executing, and,
 * once started, the lease keeper and the end. The first failure (a lost
 * lease, a failed write) is kept and handed to `onFailure` once, which stops
 * the run or chat: nothing more is executed.
 *
 * @example
 * const session = new StoreSession(store, lease, leaseMs, (error) => run?.abort());
 * const run = agent.resume(snapshot, { middleware: [session.journal] });
 * session.keepLease();
 * const { settled } = session.settle(run.result, (result) => ({ format: 'agentchart.run.finished', text: result.text }));
 */
export class StoreSession {
  readonly writer: RunWriter;
  readonly journal: FunctionMiddleware;
  #failure: unknown;
  readonly #store: RunStore;
  readonly #leaseMs: number;
  readonly #onFailure: (error: unknown) => void;
  readonly #executing = new Set<Promise<unknown>>();
  #keeper: { current: () => RunLease; stop: () => void };

  constructor(
    store: RunStore,
    lease: RunLease,
    leaseMs: number,
    onFailure: (error: unknown) => void,
    journalId?: (runId: string, callId: string) => string,
    /** The journal's entries when the session begins (a resume's), in order. */
    journaled: readonly ToolCallJournalEntry[] = [],
    /** Signs the checkpoints (the agent's or the chat's key). */
    snapshotKey?: SnapshotKey,
  ) {
    this.#store = store;
    this.#leaseMs = leaseMs;
    this.#onFailure = onFailure;
    this.#keeper = { current: () => lease, stop: () => {} };
    this.fail = this.fail.bind(this);
    this.writer = new RunWriter(
      store,
      () => this.#keeper.current(),
      this.fail,
      journaled.map((entry) => entry.callId),
      snapshotKey,
    );
    this.journal = journalMiddleware({
      store,
      lease: this.writer.lease,
      onLeaseLost: this.fail,
      track: (execution) => this.#track(execution),
      queue: (write, now) => this.writer.journal(write, now),
      ...(journalId === undefined ? {} : { journalId }),
    });
  }

  /** The first failure, if any. */
  get failure(): unknown {
    return this.#failure;
  }

  /** Keeps the first failure and stops the run or chat (later ones are ignored). */
  fail(error: unknown): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    this.#onFailure(error);
  }

  /** Renews the lease from now on; a lost lease fails the session. */
  keepLease(): void {
    this.#keeper = keepLease(this.#store, this.#keeper.current(), this.#leaseMs, this.fail);
  }

  /**
   * The end of the run or chat: `settled` resolves once `result` settled, no
   * tool of this process still executes, and (unless the session failed)
   * the end was written as `finished` with `finishedState(result)` and the
   * lease given up; a lease lost meanwhile leaves the end to the new owner.
   * `stored` resolves once what this process stores of the end is stored:
   * the `finished` row (after the tools still executing) and the lease
   * given up, so the run is free to whoever reads it next; when the run
   * failed, its last checkpoints; at once when the session failed (nothing
   * more is written).
   */
  settle<Result>(result: Promise<Result>, finishedState: (result: Result) => unknown): { settled: Promise<void>; stored: Promise<void> } {
    let stored!: () => void;
    const endStored = new Promise<void>((resolve) => (stored = resolve));
    const settled = result.then(
      async (value) => {
        if (this.#failure !== undefined) stored();
        await this.#quiet();
        try {
          if (this.#failure === undefined) await this.writer.end({ status: 'finished', state: finishedState(value) });
        } catch {
          // the lease was lost: the new owner writes the end
        } finally {
          stored();
          this.#keeper.stop();
        }
      },
      async () => {
        void this.writer.idle().then(stored);
        await this.#quiet();
        await this.writer.idle(); // the results of the calls that finished (a failed group failed the session already)
        stored();
        this.#keeper.stop();
      },
    );
    return { settled, stored: endStored };
  }

  /**
   * Records by hand the result of a call left in doubt (`journalCallId` is
   * its id in the journal); throws `CALL_NOT_STARTED` for a call that is not
   * in doubt.
   */
  async recordResult(
    inDoubt: readonly ToolCallJournalEntry[],
    callId: string,
    journalCallId: string | undefined,
    result: unknown,
    options?: RecordResultOptions,
  ): Promise<void> {
    if (journalCallId === undefined || !inDoubt.some((entry) => entry.callId === callId)) {
      throw new RunStoreError(
        'CALL_NOT_STARTED',
        `Call "${callId}" is not in doubt (in doubt: ${inDoubt.map((entry) => entry.callId).join(', ') || 'none'}).`,
        { callId },
      );
    }
    const value = recordedValue(result, options);
    await this.writer.write(() => this.#store.recordCallResult(this.#keeper.current(), journalCallId, value));
  }

  #track(execution: Promise<unknown>): void {
    this.#executing.add(execution);
    const done = () => this.#executing.delete(execution);
    execution.then(done, done);
  }

  /** Until no tool of this process executes any more: a failed run may still have effects landing. */
  async #quiet(): Promise<void> {
    while (this.#executing.size > 0) await Promise.allSettled([...this.#executing]);
  }
}
