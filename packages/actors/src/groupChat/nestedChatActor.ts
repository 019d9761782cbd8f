import type { Message } from '@agentchart/core';
import { fromPromise } from 'xstate';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { ChatEvent, GroupChatResult, NestedChatParticipant } from './groupChatTypes.js';

export interface NestedChatInput {
  chat: NestedChatParticipant;
  messages: Message[];
  /** The outer run's `inspect` option: it sees the nested chat's actors too. */
  inspect: InspectOption | undefined;
  /** Bridges the nested chat's events onto the outer chat's bus. */
  forward: (event: ChatEvent) => void;
}

/**
 * A group chat taking its turn in another chat, as an actor: it runs the
 * nested chat on the speaker's view (in its own actor system, with its own
 * shared state, seen by the outer run's `inspect`) and outputs its result.
 * Stopping the actor aborts the chat.
 */
export const nestedChatActor = fromPromise<GroupChatResult, NestedChatInput>(async ({ input, signal }) => {
  const run = input.chat.run(input.messages, { signal, inspect: input.inspect });
  const subscription = run.events$.subscribe(input.forward);
  try {
    return await run.result;
  } finally {
    subscription.unsubscribe();
  }
});
