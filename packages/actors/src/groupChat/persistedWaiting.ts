import type { ChatWaiting, GroupChatSnapshot } from '../participant/chatWaiting.js';

/**
 * What a persisted chat waits for, as `run.waiting()` reports it: the wait
 * itself, or — for a wait inside a nested chat or a custom participant's
 * turn — the wait inside, with the participants it is in (`within`, outermost first).
 *
 * @example
 * persistedWaiting({ kind: 'nested', speaker: 'review_team', snapshot }); // { kind: 'human', speaker: 'alice', within: ['review_team'] }
 */
export function persistedWaiting(waiting: GroupChatSnapshot['waiting']): ChatWaiting {
  if (waiting.kind === 'nested') {
    const inner = persistedWaiting(waiting.snapshot.waiting);
    return { ...inner, within: [waiting.speaker, ...(inner.within ?? [])] };
  }
  if (waiting.kind === 'participant') return { ...waiting.waiting, within: [waiting.speaker, ...(waiting.waiting.within ?? [])] };
  if (waiting.kind === 'approval') return { kind: 'approval', speaker: waiting.speaker, requests: waiting.requests };
  return waiting;
}
