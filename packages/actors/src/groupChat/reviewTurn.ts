import type { Message } from '@agentchart/core';
import { TERMINATE } from './chatMember.js';
import type { ChatEvent } from '../participant/chatEvent.js';
import type { ChatTurn } from '../participant/chatWaiting.js';
import { type ManagerContext, selectionState } from './managerContext.js';
import type { TurnOutcome } from '../participant/turnOutcome.js';

/** The context after a turn is appended to the transcript. */
export interface TurnRecord {
  update: Pick<ManagerContext, 'messages' | 'turns' | 'rounds'> & { lastSpeaker: string };
  /** The turn's messages, as `turn.finished` reports them. */
  messages: Message[];
}

/** The context after a turn, and the reason the chat ends because of it, if any. */
export interface TurnReview extends TurnRecord {
  update: TurnRecord['update'] & Pick<ManagerContext, 'handoff' | 'reason' | 'error'>;
}

/**
 * Appends `speaker`'s turn (its messages) to the transcript and counts it as a
 * round; a turn cut short by an abort is marked `partial`.
 *
 * @example
 * appendTurn(context, 'researcher', [{ role: 'assistant', name: 'researcher', content: 'Found it.' }]).update.turns.at(-1);
 * // { speaker: 'researcher', start: 1, end: 2 }
 */
export function appendTurn(context: ManagerContext, speaker: string, turnMessages: Message[], partial = false): TurnRecord {
  const start = context.messages.length;
  const messages = [...context.messages, ...turnMessages];
  const turn: ChatTurn = { speaker, start, end: messages.length };
  if (partial) turn.partial = true;
  return { update: { messages, turns: [...context.turns, turn], rounds: context.rounds + 1, lastSpeaker: speaker }, messages: turnMessages };
}

/** The turns with the last one marked as passed to `speaker` (`addressedTo`). */
export function turnsPassedTo(speaker: string, turns: readonly ChatTurn[]): ChatTurn[] {
  const passed = turns.slice();
  const last = passed.at(-1);
  if (last !== undefined) passed[passed.length - 1] = { ...last, addressedTo: speaker };
  return passed;
}

/**
 * Appends a turn to the transcript and decides whether it ends the chat:
 * a failed speaker (`error`), a reply matching `terminate`
 * (`terminate-message`), a handoff to terminate (`handoff-terminate`), or a
 * turn with no text and no tool call (`empty-reply`).
 */
export function reviewTurn(context: ManagerContext, speaker: string, outcome: TurnOutcome): TurnReview {
  const handoff = outcome.handoff === TERMINATE ? undefined : outcome.handoff;
  // Spelled out: a second spread in a literal takes V8's slow path, and this runs at every turn.
  const { messages, turns, rounds, lastSpeaker } = appendTurn(context, speaker, outcome.messages).update;
  const update: TurnReview['update'] = { messages, turns, rounds, lastSpeaker, handoff, reason: undefined, error: undefined };
  const reply = lastReply(outcome.messages);
  const predicate = context.runtime.isTerminationMessage;
  if (outcome.error !== undefined) {
    update.reason = 'error';
    update.error = outcome.error;
  } else if (reply !== undefined && predicate?.(reply, selectionState({ ...context, ...update })) === true) {
    update.reason = 'terminate-message';
  } else if (outcome.handoff === TERMINATE) {
    update.reason = 'handoff-terminate';
  } else if (handoff === undefined && producedNothing(outcome.messages)) {
    update.reason = 'empty-reply';
  }
  return { update, messages: outcome.messages };
}

/**
 * The termination predicate for a keyword or keywords: a keyword ends the
 * chat when it closes the reply as a sentence of its own — the reply's text,
 * without trailing spaces and one trailing `.` or `!`, ends with the keyword,
 * and before it comes nothing, a line break, or a sentence's end (`.` `!` `?`
 * `:`) and a space. Case counts. So "All good. TERMINATE" and "APPROVED."
 * end the chat; "This is NOT APPROVED yet" and "NOT APPROVED" do not.
 */
export function keywordPredicate(keywords: readonly string[]): (message: Message) => boolean {
  return (message) => keywords.some((keyword) => closesWith(message.content, keyword));
}

function closesWith(text: string, keyword: string): boolean {
  const body = text.trimEnd().replace(/[.!]$/, '');
  if (!body.endsWith(keyword)) return false;
  const before = body.slice(0, body.length - keyword.length);
  return before.trim() === '' || /(\n|[.!?:]\s)\s*$/.test(before);
}

function lastReply(messages: readonly Message[]): Message | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'assistant' || message.role === 'user') return message;
  }
  return undefined;
}

function producedNothing(messages: readonly Message[]): boolean {
  return !messages.some(
    (message) =>
      (message.role === 'assistant' && (message.content.trim() !== '' || (message.toolCalls?.length ?? 0) > 0)) ||
      (message.role === 'user' && message.content.trim() !== ''),
  );
}

/**
 * Puts out the events of a recorded turn, in the manager's order:
 * `turn.finished`, then the `handoff` its tool made (if any).
 *
 * @example
 * announceTurn(enqueue.emit, chatId, 'writer', review, outcome);
 */
export function announceTurn(emit: (event: ChatEvent) => void, chatId: string, speaker: string, review: TurnRecord, outcome: TurnOutcome): void {
  emit({ type: 'turn.finished', chatId, round: review.update.rounds, speaker, messages: review.messages });
  if (outcome.handoff !== undefined) emit({ type: 'handoff', chatId, from: speaker, to: outcome.handoff, via: 'tool' });
}
