export * from './constants.js';
export { createAgent, type Agent, type AgentOptions, type RunOptions } from './agent/createAgent.js';
export type { AgentRun } from './agent/agentRun.js';
export type { RunResult } from './agent/runResult.js';
export type { ToolCallRecord, ToolOutcome } from './agent/agentContext.js';
export { agentMachine } from './agent/agentMachine.js';
export { combineInspectors, type InspectOption } from './inspection/inspectOption.js';
export { observeAllRuns, type ObservedRun, type RunObserver } from './inspection/runObservers.js';
export * from './sharedState/index.js';
