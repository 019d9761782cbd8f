import type { SnapshotFrom } from 'xstate';
import type { agentMachine } from '../agent/machine/agentMachine.js';
import { LiveToolSet } from '../agent/tools/liveTools.js';
import { type ResumePoint, restoreRun } from '../agent/run/runSnapshot.js';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { ChatRuntime } from './chatRuntime.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type { PersistedApprovalWaiting } from '../participant/chatWaiting.js';

/** A resumed chat's speaker to continue: its agent run as it waited for approval, runtime attached. */
export interface ResumedSpeaker {
  kind: 'approval';
  speaker: string;
  snapshot: SnapshotFrom<typeof agentMachine>;
  /** A turn restored from a store checkpoint that was not waiting: where its run goes on (see `restoreRun`). */
  resumeAt?: ResumePoint;
}

/**
 * Restores the speaking agent's run of a chat persisted while it waited for
 * tool approval. Its runtime is a fresh turn runtime of the resuming chat's
 * participant, with the persisted live tool list; a run that is not that
 * participant's, or uses tools it does not know, throws `RunSnapshotError`.
 *
 * @example
 * const resumed = restoreSpeakerRun(snapshot.waiting, runtime); // { kind: 'approval', speaker: 'cleaner', snapshot }
 */
export function restoreSpeakerRun(
  waiting: Pick<PersistedApprovalWaiting, 'speaker' | 'run'>,
  runtime: ChatRuntime,
  wrap: (runtime: AgentRuntime, speaker: string) => AgentRuntime = (same) => same,
): ResumedSpeaker {
  const member = runtime.members.get(waiting.speaker);
  if (member?.kind !== 'agent') {
    throw new ChatSnapshotError(
      `The snapshot waits for a tool approval of "${waiting.speaker}", who is not an agent of this chat. Resume it with the chat that persisted it.`,
      {
        speaker: waiting.speaker,
      },
    );
  }
  const { turn } = member;
  const base = turn.runtime();
  const { snapshot, resumeAt } = restoreRun(
    waiting.run,
    member.name,
    turn.knownTools,
    (liveTools) => wrap({ ...base, liveTools: new LiveToolSet(liveTools) }, member.name),
    { snapshotKey: base.snapshotKey, sharedStateFromChat: true },
  );
  return resumeAt === undefined
    ? { kind: 'approval', speaker: member.name, snapshot }
    : { kind: 'approval', speaker: member.name, snapshot, resumeAt };
}
