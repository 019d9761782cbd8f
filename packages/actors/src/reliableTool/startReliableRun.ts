import type { Message, SharedState, Usage } from '@agentchart/core';
import { asError, zeroUsage } from '@agentchart/core/internal';
import type { Observer } from 'rxjs';
import { createActor } from 'xstate';
import { newRunId } from '../ids.js';
import { groundTruthMessages } from './prompts.js';
import { type ReliableRunOutput, reliableRunMachine } from './reliableRunMachine.js';
import type { ReliableToolAttempt } from './reliableToolAttempt.js';
import { ReliableToolError } from './reliableToolError.js';
import type { ReliableRunCaller, ReliableToolEvent } from './reliableToolEvents.js';
import { readContextItems } from './reliableToolOptions.js';
import type { ReliableToolRuntime } from './reliableToolRuntime.js';

/** What one run takes (AG2 `run(task, validation_prompt_addition, messages, ground_truth)`). */
export interface ReliableRunRequest {
  /** What to accomplish with the wrapped tool, in plain words. */
  task: string;
  /** Extra validation criteria for this run; only with `dynamicValidation: true`. */
  validationPromptAddition?: string;
  /** Added after the instance's `messages`, for this run only. */
  messages?: readonly Message[];
  /** Added after the instance's `groundTruth` (numbering continues), for this run only. */
  groundTruth?: readonly string[];
  /** Aborting it stops the models and the tool; the run fails with `RELIABLE_TOOL_ABORTED`. */
  signal?: AbortSignal;
  /** The shared state the wrapped tool sees as `ctx.state` (default: the run's own, empty). As a tool, the calling agent's. */
  state?: SharedState;
}

interface RunDetailsBase {
  runId: string;
  /** Every attempt, in order. */
  attempts: ReliableToolAttempt[];
  /** Tokens used by the runner and the validator together. */
  usage: Usage;
}

/** The whole story of a run; `runWithDetails` resolves with it and never rejects. */
export type ReliableRunDetails<V = unknown> =
  | (RunDetailsBase & {
      ok: true;
      /** The wrapped tool's result value (unwrapped from `toolResult`). */
      value: V;
      /** The result text the validator accepted. */
      text: string;
      /** The arguments of the invocation that passed validation. */
      successfulArgs: Record<string, unknown>;
    })
  | (RunDetailsBase & { ok: false; failureReason: string; error: ReliableToolError });

/** The instance-level settings a run combines with its request. */
export interface ReliableRunSettings {
  runtime: ReliableToolRuntime;
  dynamicValidation: boolean;
  messages: readonly Message[];
  groundTruth: readonly string[];
  events: Observer<ReliableToolEvent>;
}

/**
 * Runs the reliable-run machine for one request: its own actor tree, its own run id.
 * `caller` is the agent's tool call the run executes (reported on `reliable.run.started`).
 */
export function startReliableRun<V>(
  settings: ReliableRunSettings,
  request: ReliableRunRequest,
  caller?: ReliableRunCaller,
): Promise<ReliableRunDetails<V>> {
  const runId = newRunId();
  const { runtime } = settings;
  const problem = requestProblem(settings, request);
  if (problem !== undefined) return Promise.resolve(failed(runId, runtime.name, 'RELIABLE_TOOL_REQUEST_INVALID', problem, []));
  const context = readContextItems(`reliableTool "${runtime.name}" run`, request.messages, request.groundTruth);
  if (!context.ok) return Promise.resolve(failed(runId, runtime.name, 'RELIABLE_TOOL_REQUEST_INVALID', context.problem, []));

  const preamble: Message[] = [...settings.messages, ...context.messages, ...groundTruthMessages([...settings.groundTruth, ...context.groundTruth])];
  const actor = createActor(reliableRunMachine, {
    input: {
      runtime,
      runId,
      task: request.task,
      validationPromptAddition: request.validationPromptAddition,
      preamble,
      ...(request.state ? { state: request.state } : {}),
      ...(caller ? { caller } : {}),
    },
  });
  actor.on('*', (event) => settings.events.next(event));
  const { signal } = request;
  const abort = () => actor.send({ type: 'abort' });

  const details = new Promise<ReliableRunDetails<V>>((resolve) => {
    actor.subscribe({
      complete: () => {
        signal?.removeEventListener('abort', abort);
        resolve(toDetails<V>(runtime.name, actor.getSnapshot().output as ReliableRunOutput));
      },
      error: (error) => {
        signal?.removeEventListener('abort', abort);
        // Not a model's failure but the machine's own (a bug): still never a rejection.
        resolve(failed(runId, runtime.name, 'RELIABLE_TOOL_MODEL_FAILED', `the run failed: ${asError(error).message}`, [], error));
      },
    });
  });
  actor.start();
  if (signal?.aborted) abort();
  else signal?.addEventListener('abort', abort, { once: true });
  return details;
}

function requestProblem(settings: ReliableRunSettings, request: ReliableRunRequest): string | undefined {
  const name = settings.runtime.name;
  if (typeof request !== 'object' || request === null || typeof request.task !== 'string' || request.task.trim() === '') {
    return `reliableTool "${name}" needs a \`task\`: a non-empty string saying what to accomplish, e.g. run({ task: '...' }).`;
  }
  if (request.validationPromptAddition !== undefined && !settings.dynamicValidation) {
    return (
      `reliableTool "${name}" was given a validationPromptAddition, but it was created without dynamic validation. ` +
      'Pass dynamicValidation: true to reliableTool(...), or put fixed criteria in validationInstructions.'
    );
  }
  if (request.validationPromptAddition !== undefined && typeof request.validationPromptAddition !== 'string') {
    return `reliableTool "${name}": validationPromptAddition must be a string.`;
  }
  return undefined;
}

function toDetails<V>(toolName: string, output: ReliableRunOutput): ReliableRunDetails<V> {
  const { runId, attempts, usage } = output;
  if (output.failure === undefined) {
    return { runId, ok: true, value: output.value as V, text: output.text ?? '', successfulArgs: output.successfulArgs ?? {}, attempts, usage };
  }
  return { ...failed(runId, toolName, output.failure.code, output.failure.reason, attempts, output.failure.error), usage };
}

function failed<V>(
  runId: string,
  toolName: string,
  code: ReliableToolError['code'],
  reason: string,
  attempts: ReliableToolAttempt[],
  cause?: unknown,
): ReliableRunDetails<V> {
  const error = new ReliableToolError(code, errorMessage(toolName, code, reason, attempts.length), toolName, attempts, { cause });
  return { runId, ok: false, failureReason: reason, error, attempts, usage: zeroUsage() };
}

function errorMessage(toolName: string, code: ReliableToolError['code'], reasonGiven: string, attempts: number): string {
  const subject = `reliableTool "${toolName}"`;
  const reason = reasonGiven.replace(/\.+$/, ''); // it is followed by a sentence of its own
  switch (code) {
    case 'RELIABLE_TOOL_EXHAUSTED':
      return (
        `${subject}: ${reason}. Raise maxToolInvocations, state the validation criteria more clearly, ` +
        'or guide the runner with runnerInstructions, messages or groundTruth.'
      );
    case 'RELIABLE_TOOL_ABORTED':
      return `${subject} was aborted during attempt ${attempts}.`;
    case 'RELIABLE_TOOL_MODEL_FAILED':
      return `${subject} stopped because ${reason}. Check that the model server is reachable and serves the model.`;
    case 'RELIABLE_TOOL_REQUEST_INVALID':
      return reason;
  }
}
