export { serveAgUi, type ServeAgUiOptions, type AgUiServer, type AgUiListener, type AgUiListenOptions } from './serveAgUi.js';
export type { ServedAgent, ServedChat } from './servedTargets.js';
export type { AccessOptions } from './requestAccess.js';
export { AgUiError, type AgUiErrorCode } from './agUiError.js';
export { AG_UI_CUSTOM_EVENTS, DEFAULT_AG_UI_MAX_BODY_BYTES } from './constants.js';
