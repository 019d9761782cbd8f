import type { AnyTool, FunctionMiddleware, ToolCall } from '@agentchart/core';
import { type EventObject, fromCallback } from 'xstate';
import type { SharedStateHandle } from '../sharedState/sharedStateHandle.js';
import type { ToolOutcome } from './agentContext.js';
import { executeToolCall } from './executeToolCall.js';
import type { LiveToolSet, ToolListChange } from './liveTools.js';

/** Sent to the agent as each call of a batch settles (in completion order). */
export interface ToolSettledEvent {
  type: 'tool.settled';
  index: number;
  outcome: ToolOutcome;
}

/** Sent to the agent when a tool of the batch changed the live tool list. */
export interface ToolsChangedEvent {
  type: 'tools.changed';
  callId: string;
  change: ToolListChange;
}

export interface RunToolBatchInput {
  /** The tools the batch may call (those offered for it). */
  tools: ReadonlyMap<string, AnyTool>;
  liveTools: LiveToolSet;
  middleware: readonly FunctionMiddleware[];
  detailedErrors: boolean;
  calls: readonly ToolCall[];
  /** Calls already answered (rejected, over a limit): not executed. */
  answered: readonly (ToolOutcome | undefined)[];
  agentName: string;
  runId: string;
  step: number;
  /** The run's shared state; each call gets it tagged with its tool and call id. */
  state: SharedStateHandle;
}

/**
 * Runs the unanswered calls of a batch concurrently. Each outcome is sent to
 * the parent as it settles; the parent keeps them in call order. Stopping the
 * actor (an abort) aborts the signal every tool received and drops late
 * outcomes.
 */
export const runToolBatchActor = fromCallback<EventObject, RunToolBatchInput>(({ input, sendBack }) => {
  const controller = new AbortController();
  const env = {
    tools: input.tools,
    liveTools: input.liveTools,
    middleware: input.middleware,
    detailedErrors: input.detailedErrors,
    agentName: input.agentName,
    runId: input.runId,
    step: input.step,
    signal: controller.signal,
    stateFor: (call: ToolCall) => input.state.withSource({ agent: input.agentName, toolName: call.name, callId: call.id }),
    onToolsChanged: (callId: string, change: ToolListChange) => {
      if (!controller.signal.aborted) sendBack({ type: 'tools.changed', callId, change } satisfies ToolsChangedEvent);
    },
  };
  input.calls.forEach((call, index) => {
    if (input.answered[index] !== undefined) return;
    void executeToolCall(call, env).then((outcome) => {
      if (!controller.signal.aborted) sendBack({ type: 'tool.settled', index, outcome } satisfies ToolSettledEvent);
    });
  });
  return () => controller.abort(new Error('The run was aborted.'));
});
