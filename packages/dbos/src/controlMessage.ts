import { z } from 'zod';
import { DbosChatError } from './errors.js';

/** The wait a command answers: the `sequence` of the chat's `agentchart.waiting` event (the client fills it in when absent). */
const wait = z.number().int().min(1).optional();

/**
 * What a process sends to a chat (over `DBOS.send`, topic `agentchart.control`):
 * a decision on a tool call waiting for approval (or in doubt), a person's
 * turn, a manual speaker choice, a result recorded by hand for an in-doubt call.
 * Each names the wait it answers (`wait`): the chat applies it to that wait
 * only, and refuses it in any other.
 */
export const controlMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('approve'), id: z.string().min(1), wait }).strict(),
  z.object({ type: z.literal('reject'), id: z.string().min(1), reason: z.string().optional(), wait }).strict(),
  z.object({ type: z.literal('say'), text: z.string(), as: z.string().min(1).optional(), wait }).strict(),
  z.object({ type: z.literal('select'), speaker: z.string().min(1), wait }).strict(),
  z.object({ type: z.literal('record'), id: z.string().min(1), result: z.unknown(), wait }).strict(),
]);

export type ControlMessage = z.infer<typeof controlMessageSchema>;

/**
 * Checks a control message (it comes from another process: untrusted).
 *
 * @example
 * parseControlMessage({ type: 'approve', id: 'call_1' });
 */
export function parseControlMessage(message: unknown): ControlMessage {
  const parsed = controlMessageSchema.safeParse(message);
  if (!parsed.success) {
    throw new DbosChatError(
      'CONTROL_MESSAGE_INVALID',
      `Not a chat command: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`).join('; ')}. Send { type: 'approve' | 'reject' | 'say' | 'select' | 'record', … }.`,
      { message },
    );
  }
  return parsed.data;
}
