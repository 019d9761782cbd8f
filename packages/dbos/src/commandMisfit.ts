import type { DurableWaiting } from './durableWaiting.js';
import type { ControlMessage } from './controlMessage.js';

/**
 * What a wait asks for, in words (for errors).
 *
 * @example
 * describeWaiting({ kind: 'human', speaker: 'alice', sequence: 3 }); // 'a turn of "alice"'
 */
export function describeWaiting(waiting: DurableWaiting): string {
  const within = waiting.kind !== 'in-doubt' && waiting.within !== undefined ? ` (inside ${waiting.within.join(' › ')})` : '';
  if (waiting.kind === 'in-doubt') return `a decision on the in-doubt call ${waiting.id} (${waiting.toolName}): approve, reject or record-result it`;
  if (waiting.kind === 'approval') return `approval of ${waiting.requests.map((request) => request.id).join(', ')} by ${waiting.speaker}${within}`;
  if (waiting.kind === 'human') return `a turn of "${waiting.speaker}"${within}`;
  return `a speaker choice among ${waiting.eligible.join(', ')} (or terminate)${within}`;
}

/**
 * Why `message` does not answer `waiting` (`undefined` when it does): an
 * approval names one of the wait's pending calls, a person's turn the speaker
 * the chat waits for, a choice one of the eligible speakers, a recorded
 * result the call in doubt.
 *
 * @example
 * commandMisfit({ kind: 'choice', eligible: ['a'], sequence: 2 }, { type: 'select', speaker: 'b' }); // 'select b'
 */
export function commandMisfit(waiting: DurableWaiting, message: ControlMessage): string | undefined {
  if (message.type === 'approve' || message.type === 'reject') {
    if (waiting.kind === 'in-doubt' && waiting.id === message.id) return undefined;
    if (waiting.kind === 'approval' && waiting.requests.some((request) => request.id === message.id)) return undefined;
    return `${message.type} ${message.id}`;
  }
  if (message.type === 'record') return waiting.kind === 'in-doubt' && waiting.id === message.id ? undefined : `record a result for ${message.id}`;
  if (message.type === 'say') {
    return waiting.kind === 'human' && (message.as === undefined || message.as === waiting.speaker)
      ? undefined
      : `a turn${message.as === undefined ? '' : ` of "${message.as}"`}`;
  }
  return waiting.kind === 'choice' && (message.speaker === 'terminate' || waiting.eligible.includes(message.speaker))
    ? undefined
    : `select ${message.speaker}`;
}
