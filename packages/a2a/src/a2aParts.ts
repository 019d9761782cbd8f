import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role } from '@a2a-js/sdk';

/** A text part. */
export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined };
}

/** A data part (structured JSON). */
export function dataPart(value: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: undefined };
}

/** A message of the given role in a task. */
export function a2aMessage(role: 'user' | 'agent', parts: Part[], ids: { taskId?: string; contextId?: string } = {}): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: role === 'agent' ? Role.ROLE_AGENT : Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The text parts of a message (or of parts), joined by blank lines. */
export function textOfParts(parts: readonly Part[]): string {
  return parts
    .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
    .join('\n\n')
    .trim();
}

/** The data parts' values that are JSON objects. */
export function dataOfParts(parts: readonly Part[]): Record<string, unknown>[] {
  return parts.flatMap((part) =>
    part.content?.$case === 'data' && typeof part.content.value === 'object' && part.content.value !== null && !Array.isArray(part.content.value)
      ? [part.content.value as Record<string, unknown>]
      : [],
  );
}
