import type { Message } from '@agentchart/core';
import { type AnyActorRef, fromPromise } from 'xstate';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { ChatEvent, GroupChatResult, GroupChatRun, NestedChatParticipant } from './groupChatTypes.js';

export interface NestedChatInput {
  chat: NestedChatParticipant;
  messages: Message[];
  /** The outer run's `inspect` option: it sees the nested chat's actors too. */
  inspect: InspectOption | undefined;
  /** Bridges the nested chat's events onto the outer chat's bus. */
  forward: (event: ChatEvent) => void;
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
  const run = input.chat.run(input.messages, { signal, inspect: input.inspect });
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
