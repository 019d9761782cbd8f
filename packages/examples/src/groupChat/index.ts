export * from './researchTeam.js';
export * from './printChatEvents.js';
