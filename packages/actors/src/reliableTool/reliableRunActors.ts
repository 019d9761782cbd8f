import {
  type AnyTool,
  type ChatModel,
  type ChatRequest,
  type SharedState,
  directToolContext,
  toErrorInfo,
  toolOutputText,
  toolOutputValue,
} from '@agentchart/core';
import { fromPromise } from 'xstate';
import { type ModelReply, collectModelReply } from './collectModelReply.js';
import type { ToolRun } from './reliableRunContext.js';
import { type RunnerCall, type RunnerCallReading, readRunnerCall } from './runnerCall.js';
import { type ValidationResult, parseValidationReply } from './validationResult.js';

export interface RunnerTurnInput {
  model: ChatModel;
  request: ChatRequest;
  tool: AnyTool;
}

export interface RunnerTurnOutput {
  reply: ModelReply;
  reading: RunnerCallReading;
}

/** The runner: one model turn that should produce a call of the wrapped tool. */
export const runnerActor = fromPromise<RunnerTurnOutput, RunnerTurnInput>(async ({ input, signal }) => {
  const reply = await collectModelReply(input.model, input.request, signal);
  return { reply, reading: await readRunnerCall(input.tool, reply) };
});

export interface InvokeToolInput {
  tool: AnyTool;
  runnerCall: RunnerCall;
  runId: string;
  agentName: string;
  state: SharedState;
}

/**
 * One invocation of the wrapped tool. A thrown error is an outcome, not a
 * failure of the actor; the tool's signal aborts when the run is aborted.
 */
export const invokeToolActor = fromPromise<ToolRun, InvokeToolInput>(async ({ input, signal }) => {
  const { tool, runnerCall } = input;
  try {
    // The wrapped tool runs outside the agent's tool loop: it has no live tool list to change.
    const output = await tool.execute(
      runnerCall.args,
      directToolContext({
        callId: runnerCall.call.id,
        toolName: tool.name,
        agentName: input.agentName,
        runId: input.runId,
        signal,
        state: input.state,
      }),
    );
    return { ok: true, value: toolOutputValue(output), text: toolOutputText(output) };
  } catch (error) {
    return { ok: false, error: toErrorInfo(error) };
  }
});

export interface ValidatorTurnInput {
  model: ChatModel;
  request: ChatRequest;
}

export interface ValidatorTurnOutput {
  reply: ModelReply;
  verdict: ValidationResult;
}

/** The validator: one structured-output turn that judges the result. */
export const validatorActor = fromPromise<ValidatorTurnOutput, ValidatorTurnInput>(async ({ input, signal }) => {
  const reply = await collectModelReply(input.model, input.request, signal);
  return { reply, verdict: parseValidationReply(reply.text) };
});
