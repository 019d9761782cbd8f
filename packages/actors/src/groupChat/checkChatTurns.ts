import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import { ChatSnapshotError } from './groupChatErrors.js';

/**
 * Checks what the shape of a chat snapshot cannot say: each turn is a
 * non-empty range of the transcript, in order and without overlap, and the
 * last speaker is a participant. The first problem throws
 * `ChatSnapshotError` with its path.
 *
 * @example
 * checkChatTurns(snapshot, ['planner', 'critic']);
 */
export function checkChatTurns(snapshot: Pick<GroupChatSnapshot, 'turns' | 'messages' | 'lastSpeaker'>, participants: readonly string[]): void {
  let previousEnd = 0;
  snapshot.turns.forEach((turn, index) => {
    if (turn.start >= turn.end || turn.end > snapshot.messages.length || turn.start < previousEnd) {
      throw new ChatSnapshotError(
        `The snapshot is not valid at turns.${index}: messages ${turn.start} to ${turn.end} are not a range of the transcript (${snapshot.messages.length} messages) after the previous turn. Pass what run.snapshot() returned, unchanged.`,
        { path: `turns.${index}` },
      );
    }
    previousEnd = turn.end;
  });
  if (snapshot.lastSpeaker !== undefined && !participants.includes(snapshot.lastSpeaker)) {
    throw new ChatSnapshotError(`The snapshot is not valid at lastSpeaker: "${snapshot.lastSpeaker}" is not a participant of this chat.`, {
      path: 'lastSpeaker',
    });
  }
}
