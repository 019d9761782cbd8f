import type { ToolCallJournalEntry } from '@agentchart/core';
import type { TurnStore } from '../participant/participantProtocol.js';
import type { Residence } from '../participant/residence.js';
import type { ChatCheckpoints } from './chatCheckpoints.js';
import type { StoredChatCheckpoint } from './chatSnapshot.js';
import type { GroupChatRunOptions } from './groupChatTypes.js';
import type { ChatRunStarted } from './chatRunStarted.js';

/** A chat's store hooks and its first checkpoint. */
export interface ChatStoreHooks {
  readonly checkpoints: ChatCheckpoints;
  /** The first checkpoint of a new chat: its task, before the first speaker is decided. */
  started(): void;
}

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
