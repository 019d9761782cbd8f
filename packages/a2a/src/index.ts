export { serveA2a, type ServeA2aOptions, type A2aServer } from './serveA2a.js';
export type { ServedA2aAgent, ServedA2aChat } from './servedA2aTargets.js';
export { A2aError, type A2aErrorCode } from './a2aError.js';
export { DEFAULT_A2A_HOST, A2A_BASE_PATH } from './constants.js';
export { a2aParticipant, type A2aParticipantOptions } from './a2aParticipant.js';
export { a2aTool, type A2aToolOptions } from './a2aTool.js';
