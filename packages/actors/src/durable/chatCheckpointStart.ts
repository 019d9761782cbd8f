import { RunSnapshotError, type ToolCallJournalEntry } from '@agentchart/core';
import { pendingRequests } from '../agent/machine/approvals.js';
import type { AgentRuntime } from '../agent/machine/agentRuntime.js';
import type { PersistedRun } from '../agent/run/runSnapshot.js';
import type { ChatCheckpoints } from '../groupChat/chatCheckpoints.js';
import type { ChatStart } from '../groupChat/chatRun.js';
import type { ChatRuntime } from '../groupChat/chatRuntime.js';
import type { StoredChatCheckpoint } from '../groupChat/chatSnapshot.js';
import { checkDelegatedWaiting } from '../groupChat/delegatedWaiting.js';
import type { GroupChatSnapshot } from '../groupChat/groupChatTypes.js';
import { restoreSpeakerRun } from '../groupChat/speakerResume.js';
import { withInDoubtRequests } from './storedRuns.js';

/**
 * Where a chat resumed from a store checkpoint starts: between turns it
 * decides the next speaker; a decided turn begins; an agent's turn goes on
 * from its run's checkpoint; a wait waits again; a delegated turn (a nested
 * chat, a custom participant) goes on from its own checkpoint, checked by
 * its protocol. `checkpoints` are the resumed chat's hooks; without them
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
  const wrap = (speakerRuntime: AgentRuntime, speaker: string) => checkpoints?.speakerRuntime(speakerRuntime, speaker) ?? speakerRuntime;
  switch (waiting.kind) {
    case 'selecting':
      return base;
    case 'turn':
      if (waiting.run === undefined) return { ...base, resumeWaiting: { kind: 'turn', speaker: waiting.speaker } };
      return { ...base, resumeWaiting: restoreSpeakerRun({ speaker: waiting.speaker, run: waiting.run as PersistedRun }, runtime, wrap) };
    case 'approval': {
      const resumedFrom: GroupChatSnapshot = { ...checkpoint, version: 2, waiting };
      return { ...base, resumedFrom, resumeWaiting: restoreSpeakerRun(waiting, runtime, wrap) };
    }
    case 'human':
    case 'choice':
      return { ...base, resumedFrom: { ...checkpoint, version: 2, waiting }, resumeWaiting: waiting };
    case 'nested':
    case 'participant': {
      const resumeWaiting = checkDelegatedWaiting(waiting, runtime, { checkpoint: true });
      // Only a turn that waits for a person is a snapshot the handle may show (and persist) before it starts.
      return isWait(resumeWaiting)
        ? { ...base, resumedFrom: { ...checkpoint, version: checkpoint.version, waiting: resumeWaiting }, resumeWaiting }
        : { ...base, resumeWaiting };
    }
    default:
      throw new RunSnapshotError('RUN_SNAPSHOT_INVALID', 'A stored chat checkpoint has a waiting of an unknown kind.', { path: 'waiting' });
  }
}

/** Whether a persisted chat wait is a wait for a person all the way in (not a store checkpoint of a step). */
function isWait(waiting: StoredChatCheckpoint['waiting']): waiting is GroupChatSnapshot['waiting'] {
  if (waiting.kind === 'selecting' || waiting.kind === 'turn') return false;
  if (waiting.kind === 'nested') return isWait((waiting.snapshot as StoredChatCheckpoint).waiting);
  if (waiting.kind === 'participant') return (waiting as { waiting?: unknown }).waiting !== undefined;
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
  if (waiting.kind === 'nested' || waiting.kind === 'participant') {
    const member = runtime.members.get(waiting.speaker);
    const inside = member?.kind === 'chat' || member?.kind === 'custom' ? member.delegate.withInDoubtRequests : undefined;
    if (inside === undefined) return { waiting, inDoubt: [] }; // restoring says what is wrong
    const { persisted, inDoubt, runId } = inside(waiting, journal);
    return runId === undefined ? { waiting: persisted, inDoubt } : { waiting: persisted, inDoubt, runId };
  }
  if (!((waiting.kind === 'turn' && waiting.run !== undefined) || waiting.kind === 'approval')) return { waiting, inDoubt: [] };
  const member = runtime.members.get(waiting.speaker);
  const runId = (waiting.run as { runId?: unknown } | null)?.runId;
  if (member?.kind !== 'agent' || typeof runId !== 'string') return { waiting, inDoubt: [] }; // restoring says what is wrong
  const prefix = `${runId}/`;
  const own = journal.filter((entry) => entry.callId.startsWith(prefix)).map((entry) => ({ ...entry, callId: entry.callId.slice(prefix.length) }));
  const { snapshot, inDoubt } = withInDoubtRequests(waiting.run, own, member.turn.knownTools, member.turn.runtime().snapshotKey);
  if (snapshot === waiting.run) return { waiting, inDoubt, runId };
  const { approvals } = snapshot.machine.context;
  return { waiting: { kind: 'approval', speaker: waiting.speaker, requests: pendingRequests(approvals), run: snapshot }, inDoubt, runId };
}
