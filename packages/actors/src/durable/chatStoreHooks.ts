import type { FunctionMiddleware } from '@agentchart/core';
import { agentRuntime } from '../agent/machine/agentRuntime.js';
import { pendingRequests } from '../agent/machine/approvals.js';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import type { ChatCheckpoints, CheckpointedChat } from '../groupChat/chatCheckpoints.js';
import type { ChatStoreHooks } from '../groupChat/nestedChatStore.js';
import { type ChatStoreCheckpoint, snapshotVersion } from '../groupChat/chatSnapshot.js';
import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import { speakerOf } from '../groupChat/managerContext.js';
import { checkpointHooks, checkpointSnapshot, freezeCheckpoint } from './runCheckpointer.js';

/** A chat checkpoint's state, unsigned: the snapshot format whose `waiting` may also be a store-only step. */
export type ChatCheckpointState = Omit<GroupChatSnapshot, 'waiting'> & { waiting: GroupChatSnapshot['waiting'] | ChatStoreCheckpoint };

/**
 * Where a chat's checkpoints go: the store's writer for a chat kept in a
 * store, or — for a nested chat — the outer chat's checkpoint of the nested
 * turn. Called synchronously at the step; `state` is built when written.
 */
export type ChatCheckpointSink = (status: 'running' | 'waiting', state: () => ChatCheckpointState) => void;

/**
 * The checkpoint hooks of a chat kept in a store, at any depth: each
 * speaker decision, each step of the speaking agent (its run's checkpoint,
 * signed with the agent's key), each wait, each checkpoint of a delegated
 * turn (a nested chat's own checkpoints, a custom participant's state) go
 * to `sink` as the chat's state; every agent's tools (the agents of nested
 * chats too) go through `journal`.
 *
 * @example
 * const { checkpoints, started } = chatStoreHooks((status, state) => writer.checkpoint(status, state), session.journal);
 */
export function chatStoreHooks(sink: ChatCheckpointSink, journal: FunctionMiddleware, written?: () => Promise<void>): ChatStoreHooks {
  let context: (() => CheckpointedChat) | undefined;
  /** The chat's part of a checkpoint, frozen now (the manager replaces, never mutates, what it changes). */
  const freezeChat = (now: CheckpointedChat) => ({
    chatId: now.run.chatId,
    messages: now.messages,
    turns: now.turns,
    rounds: now.rounds,
    lastSpeaker: now.lastSpeaker,
    sharedState: now.run.sharedState.values(),
    randomState: now.randomState,
  });
  const save = (
    status: 'running' | 'waiting',
    chatPart: ReturnType<typeof freezeChat>,
    waiting: () => ChatStoreCheckpoint | GroupChatSnapshot['waiting'],
  ) => {
    sink(status, () => {
      const now = waiting();
      return { version: snapshotVersion(now), ...chatPart, waiting: now };
    });
  };
  const speakerHooks = (speaker: string, runKey: SnapshotKey | undefined) =>
    checkpointHooks((agentContext, value) => {
      if (context === undefined) return;
      const frozenRun = freezeCheckpoint(agentContext, value, false);
      const chatPart = freezeChat(context());
      if (value === 'awaitingApproval') {
        const requests = pendingRequests(agentContext.approvals);
        save('waiting', chatPart, () => ({ kind: 'approval', speaker, requests, run: checkpointSnapshot(frozenRun, runKey) }));
      } else save('running', chatPart, () => ({ kind: 'turn', speaker, run: checkpointSnapshot(frozenRun, runKey) }));
    });
  const checkpoints: ChatCheckpoints = {
    ...(written === undefined ? {} : { written }),
    bind(get) {
      context = get;
    },
    speakerRuntime: (runtime, speaker) =>
      agentRuntime(runtime, {
        liveTools: runtime.liveTools,
        middleware: [...runtime.middleware, journal],
        mirrorToolRules: runtime.mirrorToolRules ?? false,
        livesForChat: runtime.livesForChat ?? false,
        tokenBudget: runtime.tokenBudget,
        checkpoints: speakerHooks(speaker, runtime.snapshotKey),
      }),
    delegatedTurn: () => ({
      checkpoint: (status, persisted) => {
        if (context === undefined) return;
        const chatPart = freezeChat(context());
        save(status, chatPart, persisted);
      },
      journal,
      ...(written === undefined ? {} : { written }),
    }),
    turnBegins: (now) => save('running', freezeChat(now), () => ({ kind: 'turn', speaker: speakerOf(now) })),
    turnEnded: (now) => save('running', freezeChat(now), () => ({ kind: 'selecting' })),
    waitingForHuman: (now) => save('waiting', freezeChat(now), () => ({ kind: 'human', speaker: speakerOf(now) })),
    waitingForChoice: (now) => {
      const eligible = now.selection.eligible;
      save('waiting', freezeChat(now), () => ({ kind: 'choice', eligible }));
    },
  };
  return {
    checkpoints,
    started: () => {
      if (context !== undefined) save('running', freezeChat(context()), () => ({ kind: 'selecting' }));
    },
  };
}
