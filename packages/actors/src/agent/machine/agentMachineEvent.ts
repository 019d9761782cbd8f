import type { ErrorInfo } from '@agentchart/core';
import type { AgentTurnCommand } from './agentTurn.js';
import type { ModelCallerEvent } from './modelCaller.js';
import type { ToolProgressEvent, ToolSettledEvent, ToolsChangedEvent } from './toolRunnerActor.js';

/** A human decision on a pending approval request (see `AgentRun.approve` / `reject`). */
export interface ApprovalDecisionEvent {
  type: 'approval.decide';
  id: string;
  approved: boolean;
  reason?: string;
}

/** A run kept in a store lost its lease (`RUN_LEASE_LOST`): it fails with `error` and nothing more runs. */
export interface RunFailEvent {
  type: 'run.fail';
  error: ErrorInfo;
}

/** A run restored from a checkpoint goes on from the state it was in (see `restoreRun`). */
export interface RunResumeEvent {
  type: 'resume';
  at: 'stepDone' | 'batchReady' | 'acting';
}

/** A tool source's list change left the run's tools unusable (see `followToolSources`): the run fails with `error`. */
export interface ToolsUnusableEvent {
  type: 'tools.unusable';
  error: ErrorInfo;
}

/** Every event the agent machine takes. */
export type AgentMachineEvent =
  | ModelCallerEvent
  | ToolSettledEvent
  | ToolProgressEvent
  | ToolsChangedEvent
  | ToolsUnusableEvent
  | ApprovalDecisionEvent
  | RunFailEvent
  | RunResumeEvent
  | AgentTurnCommand
  | { type: 'start' }
  | { type: 'abort' };
