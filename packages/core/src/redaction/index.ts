export { REDACTED, type RedactionOptions, isSecretKey, redactKnownSecrets, redactText, redactValue } from './redactSecrets.js';
export { isSecretKeyName } from './secretKeyNames.js';
export { MIN_REGISTERED_SECRET_LENGTH, registerSecrets, registeredSecrets } from './secretRegistry.js';
export { containsSecretShape, redactSecretShapes } from './secretShapes.js';
export { redactSecretAssignments } from './secretAssignments.js';
