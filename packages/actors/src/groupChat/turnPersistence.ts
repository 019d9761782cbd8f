import type { ToolCallJournalEntry } from '@agentchart/core';
import { pendingRequests } from '../agent/machine/approvals.js';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { PersistedRun } from '../agent/run/runSnapshot.js';
import { withInDoubtRequests } from '../agent/run/inDoubtApprovals.js';
import type { ChatMember } from './chatMember.js';
import type { ChatRuntime } from './chatRuntime.js';
import type { ChatStoreCheckpoint } from './chatSnapshot.js';
import { checkDelegatedWaiting } from './delegatedWaiting.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { DelegatedTurnState } from '../participant/participantProtocol.js';
import { type ResumedSpeaker, restoreSpeakerRun } from './speakerResume.js';

/**
 * A speaker's turn in progress as a chat persists it — in a snapshot
 * (`run.snapshot()`: a wait) or a store checkpoint (also a step) — named by
 * the speaker whose turn it is:
 * - an agent: `approval` (its run waiting for approval) or, in a store,
 *   `turn` with its run's last checkpoint;
 * - a person: `human`;
 * - a nested chat: `nested`, with the nested chat's own snapshot;
 * - a participant of the user's own: `participant`, with its turn's state;
 * - any of them, in a store: `turn` without a run, the turn decided but not begun.
 */
export type PersistedTurn = Exclude<GroupChatSnapshot['waiting'] | ChatStoreCheckpoint, { kind: 'choice' } | { kind: 'selecting' }>;

/**
 * What the manager resumes a persisted turn from (`ManagerInput.resumeWaiting`),
 * as the participant's persistence decided it: the speaking state the turn
 * goes on in (`into`), and what that state continues from.
 * - `routing`: the turn begins as decided — a person's wait (they are asked
 *   again), or, in a store, a turn decided but not begun;
 * - `agent`: the agent's run goes on from its snapshot (`restoreSpeakerRun`);
 * - `chat`, `custom`: the delegated turn goes on from what it persisted.
 */
export type TurnResume =
  | { into: 'routing'; speaker: string }
  | { into: 'agent'; speaker: string; run: ResumedSpeaker }
  | { into: 'chat' | 'custom'; speaker: string; turn: DelegatedTurnState };

/** Where a resumed chat starts: a persisted turn, or (`selecting`) a wait for a speaker choice, made again. */
export type ChatResume = TurnResume | { into: 'selecting' };

/** The manager's state a resumed turn goes on in. */
export type ResumedTurnState = TurnResume['into'];

/** How a check is made: for a store checkpoint, and with the speaking agent's runtime wrapped by the store's hooks. */
export interface TurnCheckOptions {
  checkpoint?: boolean;
  wrap?: ((runtime: AgentRuntime, speaker: string) => AgentRuntime) | undefined;
}

/** A persisted turn with its in-doubt calls made approval requests, and the run they belong to. */
export interface PersistedTurnInDoubt {
  persisted: PersistedTurn;
  inDoubt: ToolCallJournalEntry[];
  runId?: string;
}

/**
 * How a chat checks and resumes the persisted turn of one kind of
 * participant: every kind has one (`turnPersistenceOf`). The persisting
 * side is the participant's own too: an agent's run (`run.persist()`
 * format, and the store's run checkpoints), a person's wait, a delegated
 * turn's `persist()` (and its `TurnStore.checkpoint` in a store).
 */
export interface TurnPersistence {
  /**
   * Checks `persisted` before the chat resumes it — everything resuming it
   * would check — and returns what the manager resumes from; throws
   * `ChatSnapshotError` (or `RunSnapshotError` for an agent's run).
   */
  check(persisted: PersistedTurn, options: TurnCheckOptions): TurnResume;
  /** A store checkpoint's turn, with the calls a crash left in doubt (in `journal`, as `<runId>/<callId>`) made approval requests. */
  withInDoubtRequests(persisted: PersistedTurn, journal: readonly ToolCallJournalEntry[]): PersistedTurnInDoubt;
}

/**
 * The turn persistence of a chat's member, whatever its kind.
 *
 * @example
 * const resume = turnPersistenceOf(member, runtime).check(snapshot.waiting, {}); // { into: 'agent', speaker: 'cleaner', run }
 */
export function turnPersistenceOf(member: ChatMember, runtime: ChatRuntime): TurnPersistence {
  if (member.kind === 'agent') return agentTurns(member, runtime);
  if (member.kind === 'human') return humanTurns(member.name, runtime);
  return delegatedTurns(member, runtime);
}

/**
 * Checks the turn a persisted chat stands in, through the persistence of
 * the participant it names (see `TurnPersistence.check`).
 *
 * @example
 * const resumeWaiting = checkPersistedTurn(snapshot.waiting, runtime, {});
 */
export function checkPersistedTurn(persisted: PersistedTurn, runtime: ChatRuntime, options: TurnCheckOptions): TurnResume {
  return persistenceNamed(persisted, runtime).check(persisted, options);
}

/**
 * A store checkpoint's turn with its in-doubt calls made approval requests,
 * through the persistence of the participant it names.
 *
 * @example
 * const { persisted, inDoubt, runId } = persistedTurnInDoubt(checkpoint.waiting, await store.listCalls(chatId), runtime);
 */
export function persistedTurnInDoubt(persisted: PersistedTurn, journal: readonly ToolCallJournalEntry[], runtime: ChatRuntime): PersistedTurnInDoubt {
  return persistenceNamed(persisted, runtime).withInDoubtRequests(persisted, journal);
}

function persistenceNamed(persisted: PersistedTurn, runtime: ChatRuntime): TurnPersistence {
  const member = runtime.members.get(persisted.speaker);
  if (member === undefined) {
    throw new ChatSnapshotError(
      `The snapshot names "${persisted.speaker}", who is not a participant of this chat. Resume it with the chat that persisted it.`,
      { strangers: [persisted.speaker] },
    );
  }
  return turnPersistenceOf(member, runtime);
}

const nothingInDoubt = (persisted: PersistedTurn): PersistedTurnInDoubt => ({ persisted, inDoubt: [] });

/** A turn decided but not begun (a store checkpoint): every kind begins it again. */
const decided = (persisted: PersistedTurn): TurnResume | undefined =>
  persisted.kind === 'turn' && persisted.run === undefined ? { into: 'routing', speaker: persisted.speaker } : undefined;

/**
 * A kind of turn this participant cannot have been persisted in: the
 * same refusals as ever (an approval of someone who is not an agent, a wait
 * inside someone who is not a delegated participant).
 */
function refuseOther(persisted: PersistedTurn, runtime: ChatRuntime): never {
  const { speaker } = persisted;
  // A wait inside someone who is not a nested chat or custom participant that can resume: its own refusal.
  if (persisted.kind === 'nested' || persisted.kind === 'participant') checkDelegatedWaiting(persisted, runtime);
  const what = persisted.kind === 'human' ? `waits for a person’s turn of "${speaker}"` : `waits for a tool approval of "${speaker}"`;
  const not = persisted.kind === 'human' ? 'a person' : 'an agent';
  throw new ChatSnapshotError(`The snapshot ${what}, who is not ${not} of this chat. Resume it with the chat that persisted it.`, {
    speaker,
  });
}

/** An agent: its run, restored from the `run.persist()` format (a store checkpoint of any step, or a wait for approval). */
function agentTurns(member: Extract<ChatMember, { kind: 'agent' }>, runtime: ChatRuntime): TurnPersistence {
  return {
    check(persisted, { wrap }) {
      const begun = decided(persisted);
      if (begun !== undefined) return begun;
      if (persisted.kind === 'approval' || persisted.kind === 'turn') {
        const run = restoreSpeakerRun({ speaker: persisted.speaker, run: persisted.run as PersistedRun }, runtime, wrap);
        return { into: 'agent', speaker: run.speaker, run };
      }
      return refuseOther(persisted, runtime);
    },
    withInDoubtRequests(persisted, journal) {
      if (persisted.kind !== 'approval' && persisted.kind !== 'turn') return nothingInDoubt(persisted);
      const runId = (persisted.run as { runId?: unknown } | null | undefined)?.runId;
      if (typeof runId !== 'string') return nothingInDoubt(persisted); // restoring says what is wrong
      const prefix = `${runId}/`;
      const own = journal
        .filter((entry) => entry.callId.startsWith(prefix))
        .map((entry) => ({ ...entry, callId: entry.callId.slice(prefix.length) }));
      const { turn } = member;
      const { snapshot, inDoubt } = withInDoubtRequests(persisted.run, own, turn.knownTools, turn.runtime().snapshotKey);
      if (snapshot === persisted.run) return { persisted, inDoubt, runId };
      const requests = pendingRequests(snapshot.machine.context.approvals);
      return { persisted: { kind: 'approval', speaker: persisted.speaker, requests, run: snapshot }, inDoubt, runId };
    },
  };
}

/** A person: the turn is a wait for what they say. */
function humanTurns(name: string, runtime: ChatRuntime): TurnPersistence {
  return {
    check(persisted, _options) {
      const begun = decided(persisted);
      if (begun !== undefined) return begun;
      if (persisted.kind === 'human') return { into: 'routing', speaker: name };
      return refuseOther(persisted, runtime);
    },
    withInDoubtRequests: nothingInDoubt,
  };
}

/** A nested chat or a participant of the user's own: its protocol checks what its turn persisted. */
function delegatedTurns(member: Extract<ChatMember, { kind: 'chat' | 'custom' }>, runtime: ChatRuntime): TurnPersistence {
  return {
    check(persisted, { checkpoint }) {
      const begun = decided(persisted);
      if (begun !== undefined) return begun;
      if (persisted.kind === 'nested' || persisted.kind === 'participant') {
        const turn = checkDelegatedWaiting(persisted, runtime, { checkpoint: checkpoint === true });
        return { into: member.kind, speaker: turn.speaker, turn };
      }
      return refuseOther(persisted, runtime);
    },
    withInDoubtRequests(persisted, journal) {
      const inside = member.delegate.withInDoubtRequests;
      if ((persisted.kind !== 'nested' && persisted.kind !== 'participant') || inside === undefined) return nothingInDoubt(persisted);
      return inside(persisted, journal);
    },
  };
}
