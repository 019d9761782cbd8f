import { MessageSchema } from '@agentchart/core';
import { z } from 'zod';
import { ChatSnapshotError } from './groupChatErrors.js';
import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { StoredParticipantProgress } from '../participant/chatWaiting.js';
import { checkChatTurns } from './checkChatTurns.js';

/** The snapshot version `run.snapshot()` writes (2: a wait for tool approval can be persisted). */
const CHAT_SNAPSHOT_VERSION = 2;

/** The version of a snapshot that waits inside a nested chat (readers of version 2 can read every other snapshot). */
const NESTED_WAIT_SNAPSHOT_VERSION = 3;

/** The version of a snapshot that waits inside a custom participant's turn. */
const PARTICIPANT_WAIT_SNAPSHOT_VERSION = 4;

/** The version `run.snapshot()` writes for a chat that waits for `waiting`: 3 inside a nested chat, 4 inside a custom participant's turn, else 2. */
export function snapshotVersion(waiting: Pick<GroupChatSnapshot['waiting'] | ChatStoreCheckpoint, 'kind'>): GroupChatSnapshot['version'] {
  if (waiting.kind === 'nested') return NESTED_WAIT_SNAPSHOT_VERSION;
  if (waiting.kind === 'participant') return PARTICIPANT_WAIT_SNAPSHOT_VERSION;
  return CHAT_SNAPSHOT_VERSION;
}

/** The snapshot versions this package reads. */
const CHAT_SNAPSHOT_VERSIONS = [1, CHAT_SNAPSHOT_VERSION, NESTED_WAIT_SNAPSHOT_VERSION, PARTICIPANT_WAIT_SNAPSHOT_VERSION] as const;

const ApprovalRequestSchema = z.object({ id: z.string(), toolName: z.string(), arguments: z.unknown(), step: z.number().int() });

/** A wait as `run.waiting()` reports it (inside a custom participant's turn, where the snapshot records it). */
const ChatWaitingSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('human'), speaker: z.string(), within: z.array(z.string()).optional() }),
  z.object({ kind: z.literal('choice'), eligible: z.array(z.string()), within: z.array(z.string()).optional() }),
  z.object({ kind: z.literal('approval'), speaker: z.string(), requests: z.array(ApprovalRequestSchema), within: z.array(z.string()).optional() }),
]);

const ChatTurnSchema = z.object({
  speaker: z.string(),
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
  addressedTo: z.string().optional(),
});

/**
 * A persisted wait. In a store checkpoint (`checkpoint`) a custom
 * participant's turn may also be persisted while it does not wait (its
 * state after progress it reported), so its `waiting` is optional there.
 */
function waitingSchema(checkpoint: boolean) {
  return z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('human'), speaker: z.string() }),
    z.object({ kind: z.literal('choice'), eligible: z.array(z.string()) }),
    z.object({
      kind: z.literal('approval'),
      speaker: z.string(),
      requests: z.array(ApprovalRequestSchema),
      // The speaker's run, checked when it is restored (`restoreRun`).
      run: z.unknown(),
    }),
    // The nested chat's snapshot (a store checkpoint of it, in a checkpoint), checked when the nested chat resumes it.
    z.object({ kind: z.literal('nested'), speaker: z.string(), snapshot: z.unknown() }),
    // The custom participant's turn state, checked by nothing but the participant's `resumeTurn`.
    z.object({
      kind: z.literal('participant'),
      speaker: z.string(),
      waiting: checkpoint ? ChatWaitingSchema.optional() : ChatWaitingSchema,
      state: z.unknown(),
    }),
  ]);
}

const WaitingSchema = waitingSchema(false);

/**
 * Where a chat kept in a store is at a checkpoint that is not a wait: the
 * next speaker is decided next (`selecting`), or `speaker`'s turn is under
 * way (`turn`: its run's last checkpoint, none before its first model reply).
 */
const StoreCheckpointSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('selecting') }),
  z.strictObject({ kind: z.literal('turn'), speaker: z.string(), run: z.unknown().optional() }),
]);

const GroupChatSnapshotSchema = z.object({
  version: z.number().int(),
  chatId: z.string().min(1),
  messages: z.array(MessageSchema),
  turns: z.array(ChatTurnSchema),
  rounds: z.number().int().nonnegative(),
  lastSpeaker: z.string().optional(),
  sharedState: z.record(z.string(), z.unknown()),
  randomState: z.number().int(),
  waiting: WaitingSchema,
});

/** A chat checkpoint in a store: a snapshot, or the same fields at a step that is not a wait. */
const ChatCheckpointSchema = GroupChatSnapshotSchema.extend({ waiting: z.union([waitingSchema(true), StoreCheckpointSchema]) });

/**
 * What a chat kept in a store is at, beside a wait: see `StoreCheckpointSchema`;
 * and a custom participant's turn checkpointed while it does not wait
 * (after progress it reported with `checkpoint()`).
 */
export type ChatStoreCheckpoint = { kind: 'selecting' } | { kind: 'turn'; speaker: string; run?: unknown } | StoredParticipantProgress;

/** A chat checkpoint as stored: a snapshot whose `waiting` may also be a store checkpoint. */
export type StoredChatCheckpoint = Omit<GroupChatSnapshot, 'waiting'> & { waiting: GroupChatSnapshot['waiting'] | ChatStoreCheckpoint };

/**
 * Checks a persisted chat before it is resumed: its format and version, and
 * that every speaker it names is a participant of the chat resuming it.
 * Returns a copy the resumed run may own.
 *
 * @example
 * const snapshot = parseChatSnapshot(JSON.parse(text), chat.participants);
 */
export function parseChatSnapshot(value: unknown, participants: readonly string[]): GroupChatSnapshot;
export function parseChatSnapshot(value: unknown, participants: readonly string[], options: { checkpoint: true }): StoredChatCheckpoint;
export function parseChatSnapshot(value: unknown, participants: readonly string[], options?: { checkpoint: true }): StoredChatCheckpoint {
  // The version first: a later version's snapshot may hold what this version cannot parse.
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && !(CHAT_SNAPSHOT_VERSIONS as readonly number[]).includes(version)) {
    throw new ChatSnapshotError(
      `Group chat snapshot version ${version} is not supported; this version of agentchart reads versions ${CHAT_SNAPSHOT_VERSIONS.join(', ')}. ` +
        'Resume it with the agentchart version that persisted it, or a later one.',
      { version },
    );
  }
  const parsed = (options?.checkpoint === true ? ChatCheckpointSchema : GroupChatSnapshotSchema).safeParse(value);
  if (!parsed.success) {
    throw new ChatSnapshotError(`This is not a persisted group chat: ${describeIssue(parsed.error.issues[0])}. Pass what run.snapshot() returned.`, {
      issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
    });
  }
  const snapshot = structuredClone(parsed.data) as StoredChatCheckpoint;
  const { waiting } = snapshot;
  const named = [
    ...snapshot.turns.map((turn) => turn.speaker),
    ...(waiting.kind === 'choice' ? waiting.eligible : waiting.kind === 'selecting' ? [] : [waiting.speaker]),
  ];
  const strangers = [...new Set(named.filter((name) => !participants.includes(name)))];
  if (strangers.length > 0) {
    throw new ChatSnapshotError(
      `The snapshot names ${strangers.map((name) => `"${name}"`).join(', ')}, who ${strangers.length === 1 ? 'is' : 'are'} not a participant of this chat ` +
        `(participants: ${participants.join(', ')}). Resume it with the chat that persisted it.`,
      { strangers },
    );
  }
  checkChatTurns(snapshot, participants);
  return snapshot;
}

/** `at waiting.speaker, invalid input: …`: where the first problem is, and what it is. */
function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'invalid';
  const what = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  return issue.path.length === 0 ? what : `at ${issue.path.join('.')}, ${what}`;
}
