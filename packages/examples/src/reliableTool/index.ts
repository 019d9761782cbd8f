export * from './flightSearch.js';
export * from './printReliableToolEvents.js';
