import type { GroupChatResult } from './groupChatTypes.js';

/** A chat's transcript: its messages and the turns among them. */
export type Transcript = Pick<GroupChatResult, 'messages' | 'turns'>;
