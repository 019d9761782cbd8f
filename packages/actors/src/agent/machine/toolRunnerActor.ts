import { AbortedError, type StateRecord, type ToolCall, type ToolProgress } from '@agentchart/core';
import { fromCallback } from 'xstate';
import type { z } from 'zod';
import { slotStateHandle } from '../../sharedState/sharedStateHandle.js';
import type { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';
import type { ToolOutcome } from './toolOutcome.js';
import { type ToolCallEnvironment, executeToolCall } from './executeToolCall.js';
import type { ToolListChange } from '../tools/liveTools.js';

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

/** Sent to the agent when a running call reported progress (`ctx.reportProgress`). */
export interface ToolProgressEvent {
  type: 'tool.progress';
  callId: string;
  toolName: string;
  progress: ToolProgress;
}

/** Asks the tool runner to run the unanswered calls of a batch. */
export interface RunBatchCommand
  extends Pick<ToolCallEnvironment, 'tools' | 'step' | 'liveTools' | 'middleware' | 'detailedErrors' | 'agentName' | 'runId'> {
  type: 'tools.run';
  calls: readonly ToolCall[];
  /** Calls already answered (refused, rejected, over a limit): not executed. */
  answered: readonly (ToolOutcome | undefined)[];
  /** The run's shared state; a call that reads `ctx.state` gets a view of it tagged with its tool and call id. */
  sharedState: SharedStateSlot;
  /** Checked on every write to the shared state. */
  stateSchema: z.ZodType<StateRecord> | undefined;
}

/**
 * The agent's tool runner: one actor per run. It runs the unanswered calls of
 * each batch it is given concurrently and reports every outcome as it
 * settles; the agent keeps them in call order. Stopping the actor (an abort)
 * aborts the signal every running tool received and drops late outcomes.
 * Commands carry what the calls run against, so the actor holds no code in
 * its snapshot. The abort controller is made with the first batch and only
 * aborted while calls are running: a run that calls no tool (most group-chat
 * turns) pays for neither.
 */
export const toolRunnerActor = fromCallback<RunBatchCommand>(({ sendBack, receive }) => {
  let controller: AbortController | undefined;
  let running = 0;
  let stopped = false;
  const onToolsChanged = (callId: string, change: ToolListChange) => {
    if (!stopped) sendBack({ type: 'tools.changed', callId, change } satisfies ToolsChangedEvent);
  };
  const onProgress = (callId: string, toolName: string, progress: ToolProgress) => {
    if (!stopped) sendBack({ type: 'tool.progress', callId, toolName, progress } satisfies ToolProgressEvent);
  };
  const signal = () => (controller as AbortController).signal;
  receive((command) => {
    controller ??= new AbortController();
    const env: ToolCallEnvironment = {
      tools: command.tools,
      liveTools: command.liveTools,
      middleware: command.middleware,
      detailedErrors: command.detailedErrors,
      agentName: command.agentName,
      runId: command.runId,
      step: command.step,
      signal,
      stateFor: (call) =>
        slotStateHandle(command.sharedState, {
          schema: command.stateSchema,
          source: { agent: command.agentName, toolName: call.name, callId: call.id },
        }),
      onToolsChanged,
      onProgress,
    };
    command.calls.forEach((call, index) => {
      if (command.answered[index] !== undefined) return;
      running += 1;
      void executeToolCall(call, env).then((outcome) => {
        running -= 1;
        if (!stopped) sendBack({ type: 'tool.settled', index, outcome } satisfies ToolSettledEvent);
      });
    });
  });
  return () => {
    stopped = true;
    if (running > 0) controller?.abort(new AbortedError('The run was aborted.'));
  };
});
