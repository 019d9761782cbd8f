import { type SnapshotKey, signSnapshot, verifySnapshot } from '../agent/run/snapshotSignature.js';
import type { ChatStart } from '../groupChat/chatRun.js';
import type { ChatRuntime } from '../groupChat/chatRuntime.js';
import { parseChatSnapshot } from '../groupChat/chatSnapshot.js';
import type { GroupChatRunOptions } from '../groupChat/groupChatTypes.js';
import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { Residence } from '../participant/residence.js';
import { checkpointStart, withChatInDoubtRequests } from './chatCheckpointStart.js';
import type { NestedChatStore } from '../groupChat/nestedChatStore.js';
import type { ChatRunStarted } from '../groupChat/chatRunStarted.js';
import { chatStoreHooks } from './chatStoreHooks.js';

/**
 * The store side of a nested chat (see `NestedChatStore`): `start` starts a
 * run of the chat from a `ChatStart`.
 *
 * @example
 * const store = nestedChatStore(runtime, snapshotKey, (start, options) => startChatRun(runtime, start, options.signal, options.inspect));
 */
export function nestedChatStore(
  runtime: ChatRuntime,
  snapshotKey: SnapshotKey | undefined,
  start: (start: ChatStart, options: Pick<GroupChatRunOptions, 'signal' | 'inspect'>, residence?: Residence) => ChatRunStarted,
): NestedChatStore {
  const parse = (snapshot: unknown) => {
    const { signature: _signature, ...unsigned } = (snapshot ?? {}) as { signature?: unknown };
    return parseChatSnapshot(unsigned, runtime.participants, { checkpoint: true });
  };
  const verified = (snapshot: unknown) => {
    if (snapshotKey !== undefined) verifySnapshot(snapshot, snapshotKey, 'nested chat checkpoint');
    return parse(snapshot);
  };
  return {
    hooks: (store, speaker) =>
      chatStoreHooks(
        (status, state) => {
          store.checkpoint(status, () => {
            const json = JSON.parse(JSON.stringify(state())) as object;
            // A store checkpoint of the nested chat (its `waiting` may be a step): read back with `{ checkpoint: true }`.
            const snapshot = (snapshotKey === undefined ? json : signSnapshot(json, snapshotKey)) as GroupChatSnapshot;
            return { kind: 'nested', speaker, snapshot };
          });
        },
        store.journal,
        store.written,
      ),
    resume: (snapshot, options, checkpoints, residence) => {
      const checkpoint = parse(snapshot);
      return start({ ...checkpointStart(checkpoint, checkpoint.waiting, runtime, checkpoints), checkpoints }, options, residence);
    },
    check: (snapshot) => {
      const checkpoint = verified(snapshot);
      checkpointStart(checkpoint, checkpoint.waiting, runtime, undefined);
      return checkpoint;
    },
    withInDoubtRequests: (snapshot, journal) => {
      const checkpoint = verified(snapshot);
      const { waiting, inDoubt, runId } = withChatInDoubtRequests(checkpoint.waiting, journal, runtime);
      const found = runId === undefined ? { inDoubt } : { inDoubt, runId };
      if (waiting === checkpoint.waiting) return { snapshot, ...found };
      const edited = { ...checkpoint, waiting };
      return { snapshot: snapshotKey === undefined ? edited : signSnapshot(edited, snapshotKey), ...found };
    },
  };
}
