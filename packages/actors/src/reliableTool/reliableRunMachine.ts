import { type ErrorInfo, type Message, type SharedState, type Usage, msg } from '@agentchart/core';
import { addUsage, toErrorInfo, zeroUsage } from '@agentchart/core/internal';
import { sharedStateHandle } from '../sharedState/sharedStateHandle.js';
import { SHARED_STATE_SYSTEM_ID, sharedStateMachine } from '../sharedState/sharedStateMachine.js';
import { assign, emit, enqueueActions, setup } from 'xstate';
import { buildRunnerRequest, buildValidatorRequest } from './buildRequests.js';
import { attemptRecord, failedAttemptMessages, failureReasonOf } from './concludeAttempt.js';
import type { ReliableRunContext } from './reliableRunContext.js';
import { invokeToolActor, runnerActor, validatorActor } from './reliableRunActors.js';
import type { AttemptOutcome, ReliableToolAttempt } from './reliableToolAttempt.js';
import type { ReliableToolErrorCode } from './reliableToolError.js';
import type { ReliableModelRole, ReliableRunCaller, ReliableToolEvent, ReliableToolEventOf } from './reliableToolEvents.js';
import type { ReliableToolRuntime } from './reliableToolRuntime.js';

export interface ReliableRunInput {
  runtime: ReliableToolRuntime;
  runId: string;
  task: string;
  validationPromptAddition: string | undefined;
  /** Prepended messages and ground-truth messages, shown to both models. */
  preamble: Message[];
  /** The shared state the wrapped tool sees (default: the run's own, empty). */
  state?: SharedState;
  /** The agent's tool call this run executes, when an agent called the reliable tool. */
  caller?: ReliableRunCaller;
}

export type ReliableRunMachineEvent = { type: 'abort' };

/** What a finished run hands back: plain data. */
export interface ReliableRunOutput {
  runId: string;
  ok: boolean;
  value?: unknown;
  text?: string;
  successfulArgs?: Record<string, unknown>;
  attempts: ReliableToolAttempt[];
  usage: ReliableRunContext['usage'];
  failure?: { code: ReliableToolErrorCode; reason: string; error?: ErrorInfo };
}

/** A model call (runner or validator) failed: the run ends, the attempt in progress is kept. */
const modelFailed = {
  target: 'failed',
  actions: {
    type: 'interrupt',
    params: ({ event }: { event: { error: unknown } }) => ({ code: 'RELIABLE_TOOL_MODEL_FAILED' as const, error: toErrorInfo(event.error) }),
  },
} as const;

const ABORTED: ErrorInfo = { name: 'AbortedError', code: 'ABORTED', message: 'The run was aborted.' };

/**
 * One run of a reliable tool. Each attempt is a runner turn, at most one
 * invocation of the wrapped tool and at most one validation:
 * runnerTurn → invokingTool → validating → succeeded, with every failure
 * going through `attemptFailed`, which either starts the next attempt or
 * ends the run `exhausted` once `maxToolInvocations` attempts were made.
 */
export const reliableRunMachine = setup({
  types: {
    context: {} as ReliableRunContext,
    input: {} as ReliableRunInput,
    events: {} as ReliableRunMachineEvent,
    emitted: {} as ReliableToolEvent,
    output: {} as ReliableRunOutput,
  },
  actors: { runner: runnerActor, invokeTool: invokeToolActor, validator: validatorActor, sharedState: sharedStateMachine },
  guards: {
    runnerMadeValidCall: ({ context }) => context.current.runnerCall !== undefined,
    toolSucceeded: ({ context }) => context.current.toolRun?.ok === true,
    resultValid: ({ context }) => context.current.validation?.valid === true,
    attemptsExhausted: ({ context }) => context.attempts.length >= context.runtime.maxToolInvocations,
  },
  actions: {
    announceModelCall: emit(({ context }, params: { role: ReliableModelRole }) => {
      const model = params.role === 'runner' ? context.runtime.runnerModel : context.runtime.validatorModel;
      return {
        type: 'reliable.model.request' as const,
        ...attemptOf(context),
        role: params.role,
        model: model.modelName,
        provider: model.provider,
      };
    }),
    reportModelReply: emit(({ context }, params: { role: ReliableModelRole; usage: Usage }) => modelResponse(context, params.role, params.usage)),
    startAttempt: enqueueActions(({ context, enqueue }) => {
      const attempt = context.attempts.length + 1;
      enqueue.assign({ current: { attempt } });
      enqueue.emit({ type: 'reliable.attempt.started', tool: context.runtime.name, runId: context.runId, attempt });
    }),
    announceCall: enqueueActions(({ context, enqueue }) => {
      const { runnerCall } = context.current;
      if (!runnerCall) return;
      enqueue.emit({
        type: 'reliable.runner.call',
        ...attemptOf(context),
        callId: runnerCall.call.id,
        args: runnerCall.args,
        hypothesis: runnerCall.hypothesis,
      });
    }),
    concludeFailedAttempt: enqueueActions(({ context, enqueue }, params: { outcome: AttemptOutcome }) => {
      const { runtime, current } = context;
      const reason = failureReasonOf(current, runtime.tool.name);
      const record = attemptRecord(current, params.outcome, reason);
      enqueue.assign({
        attempts: [...context.attempts, record],
        transcript: [...context.transcript, ...failedAttemptMessages(current, runtime.tool.name, runtime.maxToolInvocations, reason)],
      });
      enqueue.emit({ type: 'reliable.attempt.finished', tool: runtime.name, runId: context.runId, attempt: current.attempt, record });
    }),
    concludeValidAttempt: enqueueActions(({ context, enqueue }) => {
      const record = attemptRecord(context.current, 'valid');
      enqueue.assign({ attempts: [...context.attempts, record] });
      enqueue.emit({ type: 'reliable.attempt.finished', tool: context.runtime.name, runId: context.runId, attempt: record.attempt, record });
    }),
    interrupt: enqueueActions(({ context, enqueue }, params: { code: ReliableToolErrorCode; error: ErrorInfo }) => {
      const reason = params.code === 'RELIABLE_TOOL_ABORTED' ? 'the run was aborted' : `a model failed: ${params.error.message}`;
      const record = attemptRecord(context.current, 'interrupted', reason, params.error);
      enqueue.assign({ attempts: [...context.attempts, record], failure: { code: params.code, reason, error: params.error } });
      enqueue.emit({ type: 'reliable.attempt.finished', tool: context.runtime.name, runId: context.runId, attempt: record.attempt, record });
    }),
    recordExhaustion: assign({
      failure: ({ context }) => {
        const last = context.attempts.at(-1)?.failureReason ?? 'no attempt was made';
        return {
          code: 'RELIABLE_TOOL_EXHAUSTED' as const,
          reason: `no result passed validation in ${context.attempts.length} attempt(s); the last failed because ${last}`,
        };
      },
    }),
    finishRun: enqueueActions(({ context, enqueue }) => {
      const finished: ReliableToolEvent = {
        type: 'reliable.run.finished',
        tool: context.runtime.name,
        runId: context.runId,
        ok: context.failure === undefined,
        attempts: context.attempts.length,
      };
      if (context.failure) {
        finished.code = context.failure.code;
        finished.failureReason = context.failure.reason;
      }
      enqueue.emit(finished);
    }),
  },
}).createMachine({
  id: 'reliableRun',
  context: ({ input, spawn }) => ({
    runtime: input.runtime,
    runId: input.runId,
    caller: input.caller,
    task: input.task,
    validationPromptAddition: input.validationPromptAddition,
    preamble: input.preamble,
    transcript: [msg.user(input.task)],
    attempts: [],
    current: { attempt: 0 },
    usage: zeroUsage(),
    failure: undefined,
    state:
      input.state ??
      sharedStateHandle(spawn('sharedState', { id: SHARED_STATE_SYSTEM_ID, systemId: SHARED_STATE_SYSTEM_ID, input: {} }), {
        source: { agent: input.runtime.name },
      }),
  }),
  entry: emit(({ context }) => {
    const started: ReliableToolEventOf<'reliable.run.started'> = {
      type: 'reliable.run.started',
      tool: context.runtime.name,
      runId: context.runId,
      task: context.task,
      maxToolInvocations: context.runtime.maxToolInvocations,
      wrappedTool: context.runtime.tool.name,
    };
    if (context.caller !== undefined) started.caller = context.caller;
    if (context.validationPromptAddition !== undefined) started.validationPromptAddition = context.validationPromptAddition;
    return started;
  }),
  initial: 'runnerTurn',
  on: { abort: '.aborted' },
  states: {
    runnerTurn: {
      entry: ['startAttempt', { type: 'announceModelCall', params: { role: 'runner' } }],
      invoke: {
        src: 'runner',
        input: ({ context }) => ({ model: context.runtime.runnerModel, request: buildRunnerRequest(context), ...toolScope(context) }),
        onDone: {
          target: 'checkingCall',
          actions: [
            assign(({ context, event }) => {
              const { reply, reading } = event.output;
              const current = reading.ok
                ? { ...context.current, reply, runnerCall: reading.runnerCall }
                : { ...context.current, reply, noCallReason: reading.reason };
              return { current, usage: addUsage(context.usage, reply.usage) };
            }),
            { type: 'reportModelReply', params: ({ event }) => ({ role: 'runner' as const, usage: event.output.reply.usage }) },
          ],
        },
        onError: modelFailed,
      },
    },
    checkingCall: {
      always: [
        { guard: 'runnerMadeValidCall', target: 'invokingTool', actions: 'announceCall' },
        { target: 'attemptFailed', actions: { type: 'concludeFailedAttempt', params: { outcome: 'no-valid-call' } } },
      ],
    },
    invokingTool: {
      invoke: {
        src: 'invokeTool',
        // The guard into this state guarantees the call.
        input: ({ context }) => ({ ...toolScope(context), runnerCall: context.current.runnerCall! }),
        onDone: {
          target: 'checkingToolRun',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const toolRun = event.output;
            enqueue.assign({ current: { ...context.current, toolRun } });
            const base = attemptOf(context);
            enqueue.emit(
              toolRun.ok
                ? { type: 'reliable.tool.result', ...base, isError: false, text: toolRun.text }
                : { type: 'reliable.tool.result', ...base, isError: true, text: toolRun.error.message, error: toolRun.error },
            );
          }),
        },
      },
    },
    checkingToolRun: {
      always: [
        { guard: 'toolSucceeded', target: 'validating' },
        { target: 'attemptFailed', actions: { type: 'concludeFailedAttempt', params: { outcome: 'execution-error' } } },
      ],
    },
    validating: {
      entry: { type: 'announceModelCall', params: { role: 'validator' } },
      invoke: {
        src: 'validator',
        input: ({ context }) => ({ model: context.runtime.validatorModel, request: buildValidatorRequest(context) }),
        onDone: {
          target: 'checkingVerdict',
          actions: enqueueActions(({ context, event, enqueue }) => {
            const { reply, verdict } = event.output;
            enqueue.assign({ current: { ...context.current, validation: verdict }, usage: addUsage(context.usage, reply.usage) });
            enqueue.emit(modelResponse(context, 'validator', reply.usage));
            enqueue.emit({
              type: 'reliable.validator.verdict',
              ...attemptOf(context),
              valid: verdict.valid,
              justification: verdict.justification,
            });
          }),
        },
        onError: modelFailed,
      },
    },
    checkingVerdict: {
      always: [
        { guard: 'resultValid', target: 'succeeded', actions: 'concludeValidAttempt' },
        { target: 'attemptFailed', actions: { type: 'concludeFailedAttempt', params: { outcome: 'invalid-result' } } },
      ],
    },
    attemptFailed: {
      always: [{ guard: 'attemptsExhausted', target: 'exhausted' }, { target: 'runnerTurn' }],
    },
    succeeded: { type: 'final', entry: 'finishRun' },
    exhausted: { type: 'final', entry: ['recordExhaustion', 'finishRun'] },
    aborted: {
      type: 'final',
      entry: [{ type: 'interrupt', params: { code: 'RELIABLE_TOOL_ABORTED', error: ABORTED } }, 'finishRun'],
    },
    failed: { type: 'final', entry: 'finishRun' },
  },
  output: ({ context }) => toReliableRunOutput(context),
});

function toReliableRunOutput(context: ReliableRunContext): ReliableRunOutput {
  const output: ReliableRunOutput = { runId: context.runId, ok: context.failure === undefined, attempts: context.attempts, usage: context.usage };
  if (context.failure) {
    output.failure = context.failure;
    return output;
  }
  const { toolRun, runnerCall } = context.current;
  if (toolRun?.ok) {
    output.value = toolRun.value;
    output.text = toolRun.text;
  }
  if (runnerCall) output.successfulArgs = runnerCall.args;
  return output;
}

function modelResponse(context: ReliableRunContext, role: ReliableModelRole, usage: Usage): ReliableToolEvent {
  return { type: 'reliable.model.response', ...attemptOf(context), role, usage };
}

/** What every event of the current attempt names: the reliable tool, the run and the attempt. */
function attemptOf(context: ReliableRunContext) {
  return { tool: context.runtime.name, runId: context.runId, attempt: context.current.attempt };
}

/** What the runner's turn and the wrapped tool's invocation run in (`WrappedToolScope`). */
function toolScope(context: ReliableRunContext) {
  return { tool: context.runtime.tool, runId: context.runId, agentName: context.runtime.name, state: context.state };
}
