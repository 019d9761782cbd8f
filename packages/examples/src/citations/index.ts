export * from './citationTools.js';
export * from './citationsAgent.js';
