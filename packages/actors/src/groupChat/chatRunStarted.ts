import type { GroupChatResult, GroupChatRun } from './groupChatTypes.js';

/** A chat's transcript: its messages and the turns among them. */
export type Transcript = Pick<GroupChatResult, 'messages' | 'turns'>;

/** A run of a chat with what only its own chat can read: its transcript as it stands (a turn in progress included, as a partial turn). */
export interface ChatRunStarted {
  run: GroupChatRun;
  transcriptSoFar(): Transcript;
}
