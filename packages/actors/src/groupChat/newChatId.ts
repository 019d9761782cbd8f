import { randomUUID } from 'node:crypto';

/** A new chat id, unique across processes (a resumed chat keeps its id). */
export function newChatId(): string {
  return `chat_${randomUUID()}`;
}
