import type { Message } from '@agentchart/core';
import type { ChatTurn } from './groupChatTypes.js';

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
    if (own) view.push(...messages.slice(turn.start, turn.end));
    else if (mode === 'broadcast' || turn.addressedTo === viewer || viewer === undefined) {
      const reply = replyText(messages.slice(turn.start, turn.end));
      if (reply !== '') view.push({ role: 'user', name: turn.speaker, content: reply });
    }
    index = turn.end;
  }
  for (; index < messages.length; index++) pushContext(view, messages[index] as Message, viewer);
  return view;
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
    view.push(message.name === undefined ? { role: 'user', content: message.content } : { role: 'user', name: message.name, content: message.content });
    return;
  }
  view.push(message);
}
