import type { Message } from '@agentchart/core';
import { UnknownSpeakerError } from './groupChatErrors.js';

/** What `chat.run` does with input messages attributed to someone who is not a participant. */
export type UnknownSpeakers = 'refuse' | 'context';

/**
 * Refuses input messages whose `name` is not a participant (unless
 * `policy` is `context`): a saved transcript of another chat, or a speaker
 * renamed since, would otherwise be read as context silently and its turns
 * lost. Throws `UnknownSpeakerError` naming each stranger and its first message.
 *
 * @example
 * checkInputSpeakers([{ role: 'assistant', name: 'Chairperson', content: 'Begin.' }], ['alice'], 'refuse'); // throws
 */
export function checkInputSpeakers(messages: readonly Message[], participants: readonly string[], policy: UnknownSpeakers): void {
  if (policy === 'context') return;
  const known = new Set(participants);
  const strangers = new Map<string, number>();
  messages.forEach((message, index) => {
    if (message.role !== 'user' && message.role !== 'assistant') return;
    const { name } = message;
    if (name !== undefined && !known.has(name) && !strangers.has(name)) strangers.set(name, index);
  });
  if (strangers.size > 0) {
    throw new UnknownSpeakerError(
      [...strangers].map(([name, index]) => ({ name, index })),
      participants,
    );
  }
}
