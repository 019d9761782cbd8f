import type { Message } from '@agentchart/core';
import type { ApprovalRequest } from '../agent/machine/approvals.js';
import type { PersistedRun } from '../agent/run/runSnapshot.js';

/** One turn in the transcript: `messages.slice(start, end)` are its messages. */
export interface ChatTurn {
  speaker: string;
  start: number;
  end: number;
  /** The participant who spoke next (the reply was passed to it; what `isolated` views show). */
  addressedTo?: string;
  /** Set on a turn cut short by an abort: what the speaker had produced when the chat was aborted. */
  partial?: true;
}

/** A wait that can be persisted: a person's turn or a manual speaker choice. */
export type PersistableWaiting = { kind: 'human'; speaker: string } | { kind: 'choice'; eligible: string[] };

/**
 * What the chat is waiting for, while it waits (an agent's tool calls waiting
 * for approval included). A wait inside a nested chat that is speaking names
 * that chat (and the chats nested in it, outermost first) in `within`; the
 * outer handle's `say`, `select`, `approve` and `reject` reach it.
 */
export type ChatWaiting = (PersistableWaiting | { kind: 'approval'; speaker: string; requests: ApprovalRequest[] }) & { within?: string[] };

/** A speaking agent's wait for tool approval, persisted: the pending requests and the agent's run (`run.persist()` format). */
export interface PersistedApprovalWaiting {
  kind: 'approval';
  speaker: string;
  requests: ApprovalRequest[];
  run: PersistedRun;
}

/** A wait inside the nested chat that is speaking, persisted: that chat's own snapshot. */
export interface PersistedNestedWaiting {
  kind: 'nested';
  /** The nested chat (a participant of this chat). */
  speaker: string;
  snapshot: GroupChatSnapshot;
}

/**
 * A wait inside the turn of a custom participant that is speaking, persisted:
 * what it waits for and the turn's own state (`turn.persist()`), which the
 * participant's `resumeTurn` takes back.
 */
export interface PersistedParticipantWaiting {
  kind: 'participant';
  /** The custom participant (a participant of this chat). */
  speaker: string;
  /** What the turn waited for, as its `waiting()` reported it. */
  waiting: ChatWaiting;
  state: unknown;
}

/** A wait inside a turn the chat delegates: a nested chat's or a custom participant's. */
export type PersistedDelegatedWaiting = PersistedNestedWaiting | PersistedParticipantWaiting;

/**
 * A chat persisted while it waits for a person (`run.snapshot()`): a human
 * turn, a manual choice or a tool approval, its own or inside the nested chat
 * or custom participant that is speaking. Plain JSON, versioned (2 since
 * approvals; 3 for a wait inside a nested chat, 4 for a wait inside a custom
 * participant's turn, the only snapshots written as 3 and 4; versions 1 and 2
 * are still read), resumable in another process with `chat.resume(snapshot)`.
 */
export interface GroupChatSnapshot {
  version: 1 | 2 | 3 | 4;
  chatId: string;
  messages: Message[];
  turns: ChatTurn[];
  rounds: number;
  lastSpeaker?: string | undefined;
  sharedState: Record<string, unknown>;
  /** The state of the seeded random selector. */
  randomState: number;
  waiting: PersistableWaiting | PersistedApprovalWaiting | PersistedDelegatedWaiting;
}

/** A custom participant's turn stored while it does not wait: its state after progress it reported. */
export interface StoredParticipantProgress {
  kind: 'participant';
  speaker: string;
  waiting?: undefined;
  state: unknown;
}
