import type { ToolCallJournalEntry } from '@agentchart/core';
import { type SnapshotKey, signSnapshot, verifySnapshot } from '../agent/run/snapshotSignature.js';
import type { ChatCheckpoints } from '../groupChat/chatCheckpoints.js';
import type { ChatStart } from '../groupChat/chatRun.js';
import type { ChatRuntime } from '../groupChat/chatRuntime.js';
import { type StoredChatCheckpoint, parseChatSnapshot } from '../groupChat/chatSnapshot.js';
import type { GroupChatRunOptions, GroupChatSnapshot } from '../groupChat/groupChatTypes.js';
import type { ChatRunStarted } from '../groupChat/nestedChatProtocol.js';
import type { TurnStore } from '../participant/participantProtocol.js';
import type { Residence } from '../participant/residence.js';
import { checkpointStart, withChatInDoubtRequests } from './chatCheckpointStart.js';
import { type ChatStoreHooks, chatStoreHooks } from './chatStoreHooks.js';

/**
 * What a chat made by `createGroupChat` does when it speaks in a chat kept
 * in a store: its checkpoints become the outer chat's checkpoints of its
 * turn (`{ kind: 'nested', speaker, snapshot }`, the snapshot signed with
 * its own `snapshotKey` when it has one), its agents' tools go through the
 * outer chat's journal, and it resumes from such a checkpoint.
 */
export interface NestedChatStore {
  /** The hooks a run of the nested chat checkpoints through, into the outer chat's checkpoint of the turn of `speaker`. */
  hooks(store: TurnStore, speaker: string): ChatStoreHooks;
  /** Resumes the nested chat from `snapshot` (already checked by `check`), checkpointing through `checkpoints` (on the resident manager kept in `residence`, see `OwnChatRuns.run`). */
  resume(
    snapshot: unknown,
    options: Pick<GroupChatRunOptions, 'signal' | 'inspect'>,
    checkpoints: ChatCheckpoints,
    residence?: Residence,
  ): ChatRunStarted;
  /** Everything the resume checks (signature, every field, the speaking agent's run); the unsigned copy to resume from. */
  check(snapshot: unknown): StoredChatCheckpoint;
  /** The checkpoint with the in-doubt calls of the agent speaking inside turned into approval requests (signed again). */
  withInDoubtRequests(
    snapshot: unknown,
    journal: readonly ToolCallJournalEntry[],
  ): { snapshot: unknown; inDoubt: ToolCallJournalEntry[]; runId?: string };
}

/**
 * The store side of a nested chat (see `NestedChatStore`): `start` starts a
 * run of the chat from a `ChatStart`.
 *
 * @example
 * const store = nestedChatStore(runtime, snapshotKey, (start, options) => startChatRun(runtime, start, options.signal, options.inspect));
 */
export function nestedChatStore(
  runtime: ChatRuntime,
  snapshotKey: SnapshotKey | undefined,
  start: (start: ChatStart, options: Pick<GroupChatRunOptions, 'signal' | 'inspect'>, residence?: Residence) => ChatRunStarted,
): NestedChatStore {
  const parse = (snapshot: unknown) => {
    const { signature: _signature, ...unsigned } = (snapshot ?? {}) as { signature?: unknown };
    return parseChatSnapshot(unsigned, runtime.participants, { checkpoint: true });
  };
  const verified = (snapshot: unknown) => {
    if (snapshotKey !== undefined) verifySnapshot(snapshot, snapshotKey, 'nested chat checkpoint');
    return parse(snapshot);
  };
  return {
    hooks: (store, speaker) =>
      chatStoreHooks(
        (status, state) => {
          store.checkpoint(status, () => {
            const json = JSON.parse(JSON.stringify(state())) as object;
            // A store checkpoint of the nested chat (its `waiting` may be a step): read back with `{ checkpoint: true }`.
            const snapshot = (snapshotKey === undefined ? json : signSnapshot(json, snapshotKey)) as GroupChatSnapshot;
            return { kind: 'nested', speaker, snapshot };
          });
        },
        store.journal,
        store.written,
      ),
    resume: (snapshot, options, checkpoints, residence) => {
      const checkpoint = parse(snapshot);
      return start({ ...checkpointStart(checkpoint, checkpoint.waiting, runtime, checkpoints), checkpoints }, options, residence);
    },
    check: (snapshot) => {
      const checkpoint = verified(snapshot);
      checkpointStart(checkpoint, checkpoint.waiting, runtime, undefined);
      return checkpoint;
    },
    withInDoubtRequests: (snapshot, journal) => {
      const checkpoint = verified(snapshot);
      const { waiting, inDoubt, runId } = withChatInDoubtRequests(checkpoint.waiting, journal, runtime);
      const found = runId === undefined ? { inDoubt } : { inDoubt, runId };
      if (waiting === checkpoint.waiting) return { snapshot, ...found };
      const edited = { ...checkpoint, waiting };
      return { snapshot: snapshotKey === undefined ? edited : signSnapshot(edited, snapshotKey), ...found };
    },
  };
}
