import type { ChatRuntime } from './chatRuntime.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type { DelegatedTurnState } from '../participant/participantProtocol.js';

/**
 * Checks a persisted wait inside a delegated turn before the chat resumes it:
 * the speaker is a nested chat (for `kind: 'nested'`) or a custom participant
 * (for `kind: 'participant'`) of `runtime` that can resume a turn, and its
 * protocol accepts what was persisted (a chat made by `createGroupChat`
 * checks the inner snapshot as its own `resume` would). Throws
 * `ChatSnapshotError` (or, for an agent's run inside, `RunSnapshotError`).
 * `checkpoint`: a store checkpoint, which may stand at a step that is not a wait.
 *
 * @example
 * const waiting = checkDelegatedWaiting(snapshot.waiting, runtime); // { kind: 'nested', speaker: 'review_team', snapshot }
 */
export function checkDelegatedWaiting(waiting: DelegatedTurnState, runtime: ChatRuntime, options: { checkpoint?: boolean } = {}): DelegatedTurnState {
  const member = runtime.members.get(waiting.speaker);
  const delegate = member?.kind === 'chat' || member?.kind === 'custom' ? member.delegate : undefined;
  if (delegate?.resume === undefined) {
    const what = waiting.kind === 'nested' ? 'a nested group chat of this chat that can resume' : 'a custom participant of this chat with resumeTurn';
    throw new ChatSnapshotError(`The snapshot waits inside "${waiting.speaker}", which is not ${what}. Resume it with the chat that persisted it.`, {
      speaker: waiting.speaker,
    });
  }
  return delegate.checkPersisted(waiting, options);
}
