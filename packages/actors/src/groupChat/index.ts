export { createGroupChat, type GroupChat } from './createGroupChat.js';
export { humanAgent, type HumanAgent } from './humanAgent.js';
export { compileTransitions, type SpeakerGraph } from './compileTransitions.js';
export { analyzeTransitions } from './analyzeTransitions.js';
export { ChatNotWaitingError, ChatSnapshotError, IneligibleSpeakerError, TransitionGraphError, type TransitionProblem } from './groupChatErrors.js';
export { UnknownSpeakerError } from './groupChatErrors.js';
export { managerMachine } from './managerMachine.js';
export { handoffToolName } from './chatMembers.js';
export type * from './groupChatTypes.js';
