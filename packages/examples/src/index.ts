export * from './printEvents.js';
export * from './travelTools.js';
export * from './chooseDemoModel.js';
export * from './citations/index.js';
export * from './reliableTool/index.js';
export * from './research/researchAgent.js';
export * from './toolControl/index.js';
export * from './groupChat/index.js';
