import type { GroupChatRun } from './groupChatRun.js';
import type { Transcript } from './transcript.js';

/** A run of a chat with what only its own chat can read: its transcript as it stands (a turn in progress included, as a partial turn). */
export interface ChatRunStarted {
  run: GroupChatRun;
  transcriptSoFar(): Transcript;
}
