import type { Message } from '@agentchart/core';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import type { Residence } from '../participant/residence.js';
import type { StoreOptions } from '../storeOptions.js';
import type { ChatInternals } from './chatInternals.js';
import type { ChatRunStarted } from './chatRunStarted.js';
import type { ChatStart } from './chatRun.js';
import type { ChatRuntime } from './chatRuntime.js';
import type { GroupChatRunOptions } from './groupChatTypes.js';
import type { GroupChatRun } from './groupChatRun.js';
import type { NestedChatStore } from './nestedChatStore.js';

/**
 * How a chat's runs with `{ store }` are kept in the store, and how its turns
 * inside a stored outer chat checkpoint: given to the chat by the layer that
 * keeps runs (`durable/`, handed in by the `createGroupChat` facade), so the
 * chat knows nothing of stores. A stored chat then starts the manager through
 * `ChatInternals.start`, like any other run.
 */
export interface ChatStoreRuns {
  /** `chat.run(task, { store })`: the chat at once, started once the store created it. */
  run(chat: ChatInternals, input: string | readonly Message[], options: GroupChatRunOptions & StoreOptions): GroupChatRun;
  /** `chat.resume(chatId, { store })`: the chat at once, going on once it was loaded. */
  resume(chat: ChatInternals, chatId: string, options: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & StoreOptions): GroupChatRun;
  /** The store side of the chat's turns in an outer chat kept in a store; `start` starts a run of it. */
  nested(
    runtime: ChatRuntime,
    snapshotKey: SnapshotKey | undefined,
    start: (start: ChatStart, options: Pick<GroupChatRunOptions, 'signal' | 'inspect'>, residence?: Residence) => ChatRunStarted,
  ): NestedChatStore;
}
