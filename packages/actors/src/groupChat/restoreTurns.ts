import type { Message } from '@agentchart/core';
import type { ChatTurn } from '../participant/chatWaiting.js';

/**
 * Recovers the turns of a saved transcript: a turn is a participant's named
 * message, followed by its tool results and the replies it made after them.
 * Messages of nobody in `participants` stay outside turns (the task, context).
 * Each turn is addressed to the speaker of the next one.
 *
 * @example
 * restoreTurns([msg.user('Plan a trip'), { role: 'assistant', name: 'planner', content: '1. ...' }], ['planner']);
 * // [{ speaker: 'planner', start: 1, end: 2 }]
 */
export function restoreTurns(messages: readonly Message[], participants: readonly string[], handoffTools: ReadonlySet<string>): ChatTurn[] {
  const names = new Set(participants);
  const turns: ChatTurn[] = [];
  let current: ChatTurn | undefined;
  messages.forEach((message, index) => {
    const continues = current !== undefined && current.end === index && continuesTurn(messages[index - 1], message, current.speaker, handoffTools);
    if (continues && current !== undefined) {
      current.end = index + 1;
      return;
    }
    const speaker = message.role === 'assistant' || message.role === 'user' ? message.name : undefined;
    if (speaker === undefined || !names.has(speaker)) return;
    if (current !== undefined) current.addressedTo = speaker;
    current = { speaker, start: index, end: index + 1 };
    turns.push(current);
  });
  return turns;
}

function continuesTurn(previous: Message | undefined, message: Message, speaker: string, handoffTools: ReadonlySet<string>): boolean {
  if (previous === undefined) return false;
  if (message.role === 'tool') return previous.role === 'tool' || (previous.role === 'assistant' && (previous.toolCalls?.length ?? 0) > 0);
  if (message.role !== 'assistant' || message.name !== speaker || previous.role !== 'tool') return false;
  return !handoffTools.has(previous.toolName);
}
