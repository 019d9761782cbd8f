import { RunSnapshotError, type ToolCallJournalEntry } from '@agentchart/core';
import { createHash } from 'node:crypto';

/**
 * Where a signed checkpoint belongs, signed with it: the row (run or chat id
 * and kind) and the journal entries it relies on (how many of the row's
 * entries existed, in journal order, when it was written, and a digest of
 * their call ids). A checkpoint copied into another row, or put back with
 * journal entries it knew removed, no longer matches.
 */
export interface CheckpointSeal {
  row: string;
  kind: 'run' | 'chat';
  journal: { entries: number; digest: string };
}

const CHAIN_START = 'agentchart.journal';

const chained = (digest: string, callId: string) => createHash('sha256').update(digest).update('\n').update(callId).digest('hex');

/**
 * The journal entries of one row as its writer knows them, in journal order
 * (the store's `seq`): seeded with the entries loaded at resume, grown by each
 * `started` entry the writer stores.
 *
 * @example
 * const chain = new JournalChain((await store.listCalls(runId)).map((entry) => entry.callId));
 * chain.add('call_7');
 * chain.seal(); // { entries: n + 1, digest: '…' }
 */
export class JournalChain {
  readonly #known = new Set<string>();
  #digest = CHAIN_START;
  /** Entries added since the digest was last brought up to date (it is only needed when sealing). */
  #unsealed: string[] = [];

  constructor(callIds: Iterable<string> = []) {
    for (const callId of callIds) this.add(callId);
  }

  /** Adds an entry (one already known is not added again: a repeated `started` write creates no row). */
  add(callId: string): void {
    if (this.#known.has(callId)) return;
    this.#known.add(callId);
    this.#unsealed.push(callId);
  }

  seal(): CheckpointSeal['journal'] {
    for (const callId of this.#unsealed) this.#digest = chained(this.#digest, callId);
    this.#unsealed = [];
    return { entries: this.#known.size, digest: this.#digest };
  }
}

/**
 * Checks that a stored checkpoint (its signature already verified) belongs to
 * the row it was read from and that the journal still holds the entries it
 * relies on; throws `SNAPSHOT_TAMPERED` otherwise. A signed checkpoint without
 * a seal is held to its own run or chat id only. Returns the checkpoint
 * without its seal.
 *
 * @example
 * const checkpoint = checkSeal(stored.state, { row: runId, kind: 'run' }, await store.listCalls(runId));
 */
export function checkSeal(
  state: object,
  where: { row: string; kind: 'run' | 'chat' },
  journal: readonly ToolCallJournalEntry[],
): Record<string, unknown> {
  const { seal, ...checkpoint } = state as Record<string, unknown> & { seal?: CheckpointSeal };
  const refuse = (why: string) =>
    new RunSnapshotError('SNAPSHOT_TAMPERED', `The stored ${where.kind} "${where.row}" ${why}. It is refused; nothing ran.`, {
      runId: where.row,
    });
  if (seal === undefined) return checkpoint;
  if (seal.row !== where.row || seal.kind !== where.kind) {
    throw refuse(`holds a checkpoint signed for the ${String(seal.kind)} "${String(seal.row)}": it was copied from another row`);
  }
  const { entries, digest } = seal.journal ?? {};
  if (typeof entries !== 'number' || entries > journal.length) {
    throw refuse(`has a checkpoint that relies on ${String(entries)} journal entries, and the journal holds ${journal.length}: entries were removed`);
  }
  let chain = CHAIN_START;
  for (const entry of journal.slice(0, entries)) chain = chained(chain, entry.callId);
  if (chain !== digest) throw refuse('has a checkpoint whose journal entries were changed or removed since it was written');
  return checkpoint;
}

/**
 * Refuses a checkpoint that names another run or chat than its row
 * (`RUN_SNAPSHOT_INVALID` unsigned: nothing vouches for it anyway;
 * `SNAPSHOT_TAMPERED` signed).
 */
export function checkOwnId(
  checkpoint: Record<string, unknown>,
  field: 'runId' | 'chatId',
  where: { row: string; kind: 'run' | 'chat' },
  signed: boolean,
): void {
  const own = checkpoint[field];
  if (own === where.row) return;
  throw new RunSnapshotError(
    signed ? 'SNAPSHOT_TAMPERED' : 'RUN_SNAPSHOT_INVALID',
    `The stored ${where.kind} "${where.row}" holds the checkpoint of ${JSON.stringify(own)}: it belongs to another row. It is refused; nothing ran.`,
    { runId: where.row },
  );
}
