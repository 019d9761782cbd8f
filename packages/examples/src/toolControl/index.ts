export * from './mathLoader.js';
export * from './recordGate.js';
export * from './paymentApproval.js';
