export * from './printEvents.js';
export * from './travelTools.js';
