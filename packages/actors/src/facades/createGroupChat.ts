import { chatStoreRuns } from '../durable/storedChats.js';
import { ConfiguredGroupChat, type GroupChat } from '../groupChat/configuredGroupChat.js';
import type { GroupChatOptions } from '../groupChat/groupChatOptions.js';

/**
 * Creates a group chat: participants take turns chosen by the selection
 * method, within the allowed transitions, until a termination condition.
 * Transitions and handoffs are checked here, before any model is called. A
 * run given a `store` is kept there (`durable/`); every other run is the same
 * manager machine in memory.
 *
 * @example
 * const chat = createGroupChat({
 *   agents: [planner, { agent: researcher, handoffs: [{ to: 'critic' }] }, critic],
 *   speakerSelection: 'round_robin',
 *   transitions: { allowed: { planner: ['researcher'], researcher: ['critic'], critic: ['planner'] } },
 *   maxRounds: 6,
 *   terminate: 'APPROVED',
 * });
 * const result = await chat.run('Find three facts about octopuses.').result;
 */
export function createGroupChat(options: GroupChatOptions): GroupChat {
  return new ConfiguredGroupChat(options, chatStoreRuns);
}
