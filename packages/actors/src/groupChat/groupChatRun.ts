import type { Observable } from 'rxjs';
import type { Actor } from 'xstate';
import type { managerMachine } from './managerMachine.js';
import type { ChatEvent } from '../participant/chatEvent.js';
import type { ChatWaiting, GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { RunHandle } from '../rootRun/runHandle.js';
import type { GroupChatResult } from './groupChatTypes.js';

/** A running (or finished) group chat. */
export interface GroupChatRun extends RunHandle<ChatEvent, GroupChatResult> {
  readonly chatId: string;
  /** Every chat event; the chat starts on the next microtask, so subscribing right after `run()` sees all. */
  readonly events$: Observable<ChatEvent>;
  /**
   * Gives the waiting human participant's turn. Throws `ChatNotWaitingError`
   * unless the chat waits for a person (for `as`, when given).
   */
  say(text: string, options?: { as?: string }): void;
  /**
   * Approves a tool call of the speaking agent that waits for approval (see
   * `waiting()`); once every pending call is decided, its batch runs.
   * Throws `ApprovalError` when `id` is not pending.
   */
  approve(id: string): void;
  /** Rejects a pending tool call of the speaking agent: its model is told so instead of a result. */
  reject(id: string, reason?: string): void;
  /** Picks the next speaker (manual selection): an eligible name or `terminate`. */
  select(speaker: string): void;
  /** What the chat waits for now, if anything (right after `resume`: the persisted wait). */
  waiting(): ChatWaiting | undefined;
  /**
   * The chat's manager actor, for inspection: its snapshot, read from any
   * `events$` listener, is the state and context of that moment.
   */
  readonly actor: Actor<typeof managerMachine>;
  /**
   * The chat as plain JSON, while it waits for a person's turn, a manual
   * choice or a tool approval (right after `resume`, before the chat has
   * started: the snapshot it was resumed from); throws `ChatNotWaitingError` otherwise.
   */
  snapshot(): GroupChatSnapshot;
}
