import {
  type AnyTool,
  type ChatModel,
  type ChatRequest,
  type SharedState,
  type ToolCall,
  type ToolContext,
  directToolContext,
} from '@agentchart/core';
import { toErrorInfo, toolOutputText, toolOutputValue } from '@agentchart/core/internal';
import { fromPromise } from 'xstate';
import { type ModelReply, collectModelReply } from './collectModelReply.js';
import type { ToolRun } from './reliableRunContext.js';
import { type RunnerCall, type RunnerCallReading, readRunnerCall } from './runnerCall.js';
import { type ValidationResult, parseValidationReply } from './validationResult.js';

/** What the wrapped tool's context is made of, for validating and invoking it. */
export interface WrappedToolScope {
  tool: AnyTool;
  runId: string;
  agentName: string;
  state: SharedState;
}

/** The wrapped tool runs outside an agent's tool loop: it has no live tool list to change. */
function wrappedToolContext(scope: WrappedToolScope, call: ToolCall, signal: AbortSignal): ToolContext {
  const { tool, agentName, runId, state } = scope;
  return directToolContext({ callId: call.id, toolName: tool.name, agentName, runId, signal, state });
}

export interface RunnerTurnInput extends WrappedToolScope, ValidatorTurnInput {}

export interface RunnerTurnOutput {
  reply: ModelReply;
  reading: RunnerCallReading;
}

/** The runner: one model turn that should produce a call of the wrapped tool. */
export const runnerActor = fromPromise<RunnerTurnOutput, RunnerTurnInput>(async ({ input, signal }) => {
  const reply = await collectModelReply(input.model, input.request, signal);
  return { reply, reading: await readRunnerCall(input.tool, reply, (call) => wrappedToolContext(input, call, signal)) };
});

export interface InvokeToolInput extends WrappedToolScope {
  runnerCall: RunnerCall;
}

/**
 * One invocation of the wrapped tool. A thrown error is an outcome, not a
 * failure of the actor; the tool's signal aborts when the run is aborted.
 */
export const invokeToolActor = fromPromise<ToolRun, InvokeToolInput>(async ({ input, signal }) => {
  const { tool, runnerCall } = input;
  try {
    const output = await tool.execute(runnerCall.args, wrappedToolContext(input, runnerCall.call, signal));
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
