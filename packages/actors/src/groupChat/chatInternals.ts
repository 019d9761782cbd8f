import type { Message } from '@agentchart/core';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import type { ChatStart } from './chatRun.js';
import type { ChatRuntime } from './chatRuntime.js';
import type { GroupChatRunOptions } from './groupChatTypes.js';
import type { GroupChatRun } from './groupChatRun.js';

/** What the store's chat runs need of a chat made by `createGroupChat` (see `durable/storedChats.ts`). */
export interface ChatInternals {
  readonly name: string;
  readonly runtime: ChatRuntime;
  /** Signs the chat's store checkpoints (`createGroupChat({ snapshotKey })`). */
  readonly snapshotKey: SnapshotKey | undefined;
  /** Where a new run on `input` starts, checked as `chat.run` checks it. */
  newStart(input: string | readonly Message[], options: GroupChatRunOptions): ChatStart;
  /** Starts the manager on `start`. */
  start(start: ChatStart, options: Pick<GroupChatRunOptions, 'signal' | 'inspect' | 'maxTokens'>): GroupChatRun;
}

/** The key under which a chat made by `createGroupChat` gives its internals (not a public API). */
export const CHAT_INTERNALS: unique symbol = Symbol('agentchart.chatInternals');

/** A chat that gives its internals (one made by `createGroupChat`). */
export interface ProvidesChatInternals {
  [CHAT_INTERNALS](): ChatInternals;
}

/** The internals of a chat made by `createGroupChat`. */
export function chatInternalsOf(chat: object): ChatInternals {
  const provider = (chat as Partial<ProvidesChatInternals>)[CHAT_INTERNALS];
  if (typeof provider !== 'function') throw new TypeError('Expected a group chat made by createGroupChat(...).');
  return provider.call(chat);
}
