export * from './constants.js';
export { createAgent, type Agent, type AgentOptions, type RunOptions } from './agent/createAgent.js';
export type { AgentRun } from './agent/agentRun.js';
export type { RunResult } from './agent/runResult.js';
export type { ToolCallRecord, ToolOutcome } from './agent/agentContext.js';
export { agentMachine } from './agent/agentMachine.js';
export * from './sharedState/index.js';
export * from './reliableTool/index.js';
