export * from './constants.js';
export { createAgent, type Agent, type AgentOptions, type RunOptions, type ResumeOptions } from './agent/createAgent.js';
export type { AgentRun } from './agent/agentRun.js';
export type { RunResult } from './agent/runResult.js';
export type { ToolCallRecord, ToolOutcome } from './agent/agentContext.js';
export { agentMachine } from './agent/agentMachine.js';
export { combineInspectors, type InspectOption } from './inspection/inspectOption.js';
export { observeAllRuns, type ObservedRun, type RunObserver } from './inspection/runObservers.js';
export { LiveToolSet, type ToolListChange } from './agent/liveTools.js';
export type { ApprovalRequest, ApprovalDecision } from './agent/approvals.js';
export type { PersistedRun } from './agent/runSnapshot.js';
export { invokeWithMiddleware, type InvocationOutcome } from './agent/middleware.js';
export * from './sharedState/index.js';
export * from './reliableTool/index.js';
export * from './openapi/index.js';
export * from './groupChat/index.js';
export { type ToolSource, isToolSource } from './agent/toolSource.js';
export { ToolSourceError } from './agent/toolSourceError.js';
export {
  DEFAULT_LEASE_MS,
  type DurableRun,
  type PendingResumes,
  type StoreOptions,
  persistRunToStore,
  resumePending,
  resumeRunFromStore,
} from './durable/storedRuns.js';
export { journalMiddleware, type JournalTarget } from './durable/journalMiddleware.js';
export { argumentsHash } from './durable/argumentsHash.js';
export { keepLease, type LeaseKeeper } from './durable/leaseKeeper.js';
