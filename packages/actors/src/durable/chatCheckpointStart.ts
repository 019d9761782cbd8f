import type { ToolCallJournalEntry } from '@agentchart/core';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { ChatCheckpoints } from '../groupChat/chatCheckpoints.js';
import type { ChatStart } from '../groupChat/chatRun.js';
import type { ChatRuntime } from '../groupChat/chatRuntime.js';
import type { StoredChatCheckpoint } from '../groupChat/chatSnapshot.js';
import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import { checkPersistedTurn, persistedTurnInDoubt } from '../groupChat/turnPersistence.js';

/**
 * Where a chat resumed from a store checkpoint starts: between turns it
 * decides the next speaker; a decided turn begins; an agent's turn goes on
 * from its run's checkpoint; a wait waits again; a delegated turn (a nested
 * chat, a custom participant) goes on from its own checkpoint, checked by
 * its protocol — each through the persistence of the participant whose
turn it is (`checkPersistedTurn`). `checkpoints` are the resumed chat's hooks; without them
 * the start is built only to check the checkpoint. Throws
 * `RunSnapshotError` (a speaker's run) or `ChatSnapshotError`.
 *
 * @example
 * const start = checkpointStart(checkpoint, checkpoint.waiting, runtime, hooks.checkpoints);
 */
export function checkpointStart(
  checkpoint: StoredChatCheckpoint,
  waiting: StoredChatCheckpoint['waiting'],
  runtime: ChatRuntime,
  checkpoints: ChatCheckpoints | undefined,
): ChatStart {
  const { chatId, messages, turns, rounds, lastSpeaker, sharedState, randomState } = checkpoint;
  const base = { chatId, messages, turns, rounds, lastSpeaker, sharedState, randomState };
  if (waiting.kind === 'selecting') return base;
  if (waiting.kind === 'choice') return { ...base, resumedFrom: { ...checkpoint, version: 2, waiting }, resumeWaiting: { into: 'selecting' } };
  const wrap =
    checkpoints === undefined ? undefined : (speakerRuntime: AgentRuntime, speaker: string) => checkpoints.speakerRuntime(speakerRuntime, speaker);
  const resumeWaiting = checkPersistedTurn(waiting, runtime, { checkpoint: true, wrap });
  // What the handle shows (and persists) before the chat starts: only a wait for a person, all the way in.
  const persisted = resumeWaiting.into === 'chat' || resumeWaiting.into === 'custom' ? resumeWaiting.turn : waiting;
  if (!isWait(persisted)) return { ...base, resumeWaiting };
  const version = persisted.kind === 'nested' || persisted.kind === 'participant' ? checkpoint.version : 2;
  return { ...base, resumedFrom: { ...checkpoint, version, waiting: persisted }, resumeWaiting };
}

/** Whether a persisted chat wait is a wait for a person all the way in (not a store checkpoint of a step). */
function isWait(waiting: StoredChatCheckpoint['waiting']): waiting is GroupChatSnapshot['waiting'] {
  if (waiting.kind === 'selecting' || waiting.kind === 'turn') return false;
  if (waiting.kind === 'nested') return isWait((waiting.snapshot as StoredChatCheckpoint).waiting);
  if (waiting.kind === 'participant') return waiting.waiting !== undefined;
  return true;
}

/** A checkpointed chat's wait with its in-doubt calls as approval requests, and the run they belong to. */
export interface ChatInDoubt {
  waiting: StoredChatCheckpoint['waiting'];
  inDoubt: ToolCallJournalEntry[];
  runId?: string;
}

/**
 * The speaking agent's run — at any depth: the agent speaking inside a
 * nested chat that speaks — with its in-doubt calls turned into approval
 * requests (see `withInDoubtRequests`): the chat then waits for them.
 * `journal` is the outermost chat's, where every call is `<runId>/<callId>`.
 *
 * @example
 * const { waiting, inDoubt, runId } = withChatInDoubtRequests(checkpoint.waiting, await store.listCalls(chatId), runtime);
 */
export function withChatInDoubtRequests(
  waiting: StoredChatCheckpoint['waiting'],
  journal: readonly ToolCallJournalEntry[],
  runtime: ChatRuntime,
): ChatInDoubt {
  if (waiting.kind === 'selecting' || waiting.kind === 'choice' || !runtime.members.has(waiting.speaker)) return { waiting, inDoubt: [] }; // restoring says what is wrong
  const { persisted, inDoubt, runId } = persistedTurnInDoubt(waiting, journal, runtime);
  return runId === undefined ? { waiting: persisted, inDoubt } : { waiting: persisted, inDoubt, runId };
}
