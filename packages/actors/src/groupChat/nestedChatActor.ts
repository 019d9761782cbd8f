import type { Message } from '@agentchart/core';
import { type AnyActorRef, fromPromise } from 'xstate';
import type { InspectOption } from '../inspection/inspectOption.js';
import { parseChatSnapshot } from './chatSnapshot.js';
import type { ChatRuntime } from './chatRuntime.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type { ChatEvent, GroupChatResult, GroupChatRun, GroupChatSnapshot, NestedChatParticipant, PersistedNestedWaiting } from './groupChatTypes.js';

export interface NestedChatInput {
  chat: NestedChatParticipant;
  messages: Message[];
  /** The outer run's `inspect` option: it sees the nested chat's actors too. */
  inspect: InspectOption | undefined;
  /** Bridges the nested chat's events onto the outer chat's bus. */
  forward: (event: ChatEvent) => void;
  /** A persisted run of the nested chat to continue instead of a new run on `messages`. */
  resume?: GroupChatSnapshot | undefined;
}

/** The nested chats' runs, by the actor running each: how the outer handle reaches a person inside. */
const nestedRuns = new WeakMap<AnyActorRef, GroupChatRun>();

/**
 * A group chat taking its turn in another chat, as an actor: it runs the
 * nested chat on the speaker's view (in its own actor system, with its own
 * shared state, seen by the outer run's `inspect`) and outputs its result.
 * While it runs, its handle is found with `nestedRunOf(actor)`. Stopping the
 * actor aborts the chat.
 */
export const nestedChatActor = fromPromise<GroupChatResult, NestedChatInput>(async ({ input, signal, self }) => {
  const { chat, resume, inspect } = input;
  const run = resume !== undefined && chat.resume !== undefined ? chat.resume(resume, { signal, inspect }) : chat.run(input.messages, { signal, inspect });
  nestedRuns.set(self, run);
  const subscription = run.events$.subscribe(input.forward);
  try {
    return await run.result;
  } finally {
    subscription.unsubscribe();
    nestedRuns.delete(self);
  }
});

/**
 * The run of the nested chat that `actor` (a `nestedChatActor`) runs now, if
 * any: the outer chat's handle reports its waits and hands it a person's
 * `say`, `select`, `approve` and `reject`.
 *
 * @example
 * const inner = nestedRunOf(managerSnapshot.children.speaker); // inner?.waiting()
 */
export function nestedRunOf(actor: AnyActorRef | undefined): GroupChatRun | undefined {
  return actor === undefined ? undefined : nestedRuns.get(actor);
}

/**
 * Checks a persisted wait inside a nested chat before the outer chat resumes
 * it: the speaker is a nested chat of `runtime` that can resume, and (for a
 * chat made by `createGroupChat`) the inner snapshot is one of its own.
 * Throws `ChatSnapshotError` otherwise.
 *
 * @example
 * const waiting = checkNestedWaiting(snapshot.waiting, runtime); // { kind: 'nested', speaker: 'review_team', snapshot }
 */
export function checkNestedWaiting(waiting: PersistedNestedWaiting, runtime: ChatRuntime): PersistedNestedWaiting {
  const member = runtime.members.get(waiting.speaker);
  if (member?.kind !== 'chat' || member.chat.resume === undefined) {
    throw new ChatSnapshotError(
      `The snapshot waits inside "${waiting.speaker}", which is not a nested group chat of this chat that can resume. Resume it with the chat that persisted it.`,
      { speaker: waiting.speaker },
    );
  }
  const { participants } = member.chat as { participants?: readonly string[] };
  return participants === undefined ? waiting : { ...waiting, snapshot: parseChatSnapshot(waiting.snapshot, participants) };
}
