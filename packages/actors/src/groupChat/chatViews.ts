import type { Message } from '@agentchart/core';
import type { ChatTurn } from '../participant/chatWaiting.js';

/** How participants see each other's turns. */
export type ViewMode = 'broadcast' | 'isolated';

/**
 * The messages `viewer` is shown when it speaks: the task, its own turns in
 * full (tool calls and results included), and the replies of others as named
 * user messages — every reply when broadcasting, only those passed to the
 * viewer when isolated. `viewer` undefined gives a neutral observer's view
 * (the `auto` selector's).
 *
 * @example
 * viewFor('critic', messages, turns, 'isolated');
 */
export function viewFor(viewer: string | undefined, messages: readonly Message[], turns: readonly ChatTurn[], mode: ViewMode): Message[] {
  const view: Message[] = [];
  let index = 0;
  for (const turn of turns) {
    for (; index < turn.start; index++) pushContext(view, messages[index] as Message, viewer);
    const own = turn.speaker === viewer;
    if (own) for (let at = turn.start; at < turn.end; at++) view.push(messages[at] as Message);
    else if (mode === 'broadcast' || turn.addressedTo === viewer || viewer === undefined) {
      const reply = replyOf(turn, messages);
      if (reply !== undefined) view.push(reply);
    }
    index = turn.end;
  }
  for (; index < messages.length; index++) pushContext(view, messages[index] as Message, viewer);
  return view;
}

/**
 * A recorded turn's messages never change, so the named message others see
 * of it is made once per turn (and checked against the turn's first and last
 * message): a view costs one push per earlier turn, not a copy and a join.
 */
const replies = new WeakMap<ChatTurn, { first: Message | undefined; last: Message | undefined; reply: Message | undefined }>();

function replyOf(turn: ChatTurn, messages: readonly Message[]): Message | undefined {
  const first = messages[turn.start];
  const last = messages[turn.end - 1];
  const known = replies.get(turn);
  if (known !== undefined && known.first === first && known.last === last) return known.reply;
  const text = replyText(messages.slice(turn.start, turn.end));
  const reply: Message | undefined = text === '' ? undefined : { role: 'user', name: turn.speaker, content: text };
  replies.set(turn, { first, last, reply });
  return reply;
}

/** What others see of a turn: its non-empty assistant (or human) texts, joined. */
export function replyText(turnMessages: readonly Message[]): string {
  return turnMessages
    .filter((message) => (message.role === 'assistant' || message.role === 'user') && message.content !== '')
    .map((message) => message.content)
    .join('\n\n');
}

/** Messages outside any turn (the task, restored context): assistant texts of others become named user messages. */
function pushContext(view: Message[], message: Message, viewer: string | undefined): void {
  if (message.role === 'tool') return;
  if (message.role === 'assistant' && message.name !== viewer) {
    if (message.content === '') return;
    view.push(
      message.name === undefined ? { role: 'user', content: message.content } : { role: 'user', name: message.name, content: message.content },
    );
    return;
  }
  view.push(message);
}
