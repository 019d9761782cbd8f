import { randomUUID } from 'node:crypto';
import type { Message } from '@agentchart/core';

/** The A2A context of one chat run, and how many of its messages the remote agent was sent. */
export interface ChatContext {
  contextId: string;
  seen: number;
  /** The messages of `view` the remote agent has not been sent; marks them sent. */
  unseen(view: readonly Message[]): Message[];
}

/** The contexts of the chat runs a participant takes part in. */
export interface ChatContexts {
  of(view: readonly Message[]): ChatContext;
  restore(view: readonly Message[], contextId: string, seen: number): ChatContext;
}

/** Contexts remembered at most, oldest forgotten first. */
const MAX_CONTEXTS = 256;

/**
 * One A2A context per chat run. A custom participant is not told which run
 * a turn belongs to, so a run is known by the start of what it is shown (its
 * task and the messages before the first named one): every turn of one run
 * begins the same way. Two runs on the same task at the same time share one
 * context.
 *
 * @example
 * const contexts = chatContexts();
 * contexts.of(view).unseen(view); // every message, the first time
 */
export function chatContexts(): ChatContexts {
  const byRun = new Map<string, ChatContext>();
  const keyOf = (view: readonly Message[]) => {
    const end = view.findIndex((message) => 'name' in message && message.name !== undefined);
    return JSON.stringify(view.slice(0, end === -1 ? view.length : end).map((message) => [message.role, message.content]));
  };
  const make = (key: string, contextId: string, seen: number): ChatContext => {
    const context: ChatContext = {
      contextId,
      seen,
      unseen: (view) => {
        const fresh = view
          .slice(context.seen)
          .filter((message) => message.role === 'user' || (message.role === 'assistant' && message.content !== ''));
        context.seen = view.length;
        return fresh;
      },
    };
    byRun.set(key, context);
    if (byRun.size > MAX_CONTEXTS) byRun.delete(byRun.keys().next().value as string);
    return context;
  };
  return {
    of: (view) => byRun.get(keyOf(view)) ?? make(keyOf(view), randomUUID(), 0),
    restore: (view, contextId, seen) => make(keyOf(view), contextId, seen),
  };
}
