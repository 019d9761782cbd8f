import type { AnyTool, ToolCall } from '@agentchart/core';
import { type EventObject, fromCallback } from 'xstate';
import type { SharedStateHandle } from '../sharedState/sharedStateHandle.js';
import type { ToolOutcome } from './agentContext.js';
import { executeToolCall } from './executeToolCall.js';

/** Sent to the agent as each call of a batch settles (in completion order). */
export interface ToolSettledEvent {
  type: 'tool.settled';
  index: number;
  outcome: ToolOutcome;
}

export interface RunToolBatchInput {
  tools: ReadonlyMap<string, AnyTool>;
  calls: readonly ToolCall[];
  agentName: string;
  runId: string;
  /** The run's shared state; each call gets it tagged with its tool and call id. */
  state: SharedStateHandle;
}

/**
 * Runs a batch of tool calls concurrently. Each outcome is sent to the parent
 * as it settles; the parent keeps them in call order. Stopping the actor (an
 * abort) aborts the signal every tool received and drops late outcomes.
 */
export const runToolBatchActor = fromCallback<EventObject, RunToolBatchInput>(({ input, sendBack }) => {
  const controller = new AbortController();
  const base = { agentName: input.agentName, runId: input.runId, signal: controller.signal };
  input.calls.forEach((call, index) => {
    const state = input.state.withSource({ agent: input.agentName, toolName: call.name, callId: call.id });
    void executeToolCall(input.tools, call, { ...base, state }).then((outcome) => {
      if (!controller.signal.aborted) sendBack({ type: 'tool.settled', index, outcome } satisfies ToolSettledEvent);
    });
  });
  return () => controller.abort(new Error('The run was aborted.'));
});
