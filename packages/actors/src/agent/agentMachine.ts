import {
  type ErrorInfo,
  type Message,
  type RunEvent,
  type ToolCall,
  type ToolMessage,
  addUsage,
  toErrorInfo,
  zeroUsage,
} from '@agentchart/core';
import { assign, emit, enqueueActions, setup } from 'xstate';
import { type AgentContext, type ToolCallRecord, emptyDraft } from './agentContext.js';
import type { AgentRuntime } from './agentRuntime.js';
import { buildModelRequest } from './buildModelRequest.js';
import { type ModelStreamEvent, callModelActor } from './callModelActor.js';
import { type ToolSettledEvent, runToolBatchActor } from './runToolBatchActor.js';
import { assembleAssistantMessage } from './assembleAssistantMessage.js';
import { toRunResult } from './runResult.js';
import { type RunSharedStateInput, toolStateHandle } from './runSharedState.js';
import { SHARED_STATE_SYSTEM_ID, sharedStateMachine } from '../sharedState/sharedStateMachine.js';

export interface AgentMachineInput {
  runtime: AgentRuntime;
  runId: string;
  messages: Message[];
  /** Initial values of the run's own shared state, or the group chat's shared state to use instead. */
  state?: RunSharedStateInput;
}

export type AgentMachineEvent = ModelStreamEvent | ToolSettledEvent | { type: 'start' } | { type: 'abort' };

/**
 * The agent's tool loop:
 * idle → thinking (model call) → acting (tool batch) → thinking … → done,
 * with `aborted` and `failed` reachable from any working state.
 */
export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    input: {} as AgentMachineInput,
    events: {} as AgentMachineEvent,
    emitted: {} as RunEvent,
  },
  actors: { callModel: callModelActor, runToolBatch: runToolBatchActor, sharedState: sharedStateMachine },
  guards: {
    replyHasToolCalls: ({ context }) => context.draft.toolCalls.length > 0,
    batchSettled: ({ context }) => context.batch.pending === 0,
    stepsExhausted: ({ context }) => context.step >= context.runtime.maxSteps,
  },
  actions: {
    startStep: enqueueActions(({ context, enqueue }) => {
      const step = context.step + 1;
      enqueue.assign({ step, draft: emptyDraft() });
      const request = buildModelRequest(context);
      enqueue.emit({
        type: 'model.request',
        runId: context.runId,
        agent: context.runtime.agentName,
        step,
        tools: request.tools.map((tool) => tool.name),
        toolChoice: request.toolChoice,
      });
    }),
    absorbModelEvent: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'model.event') return;
      const modelEvent = event.event;
      const base = { runId: context.runId, agent: context.runtime.agentName, step: context.step };
      switch (modelEvent.type) {
        case 'text-delta':
          enqueue.assign({ draft: { ...context.draft, text: context.draft.text + modelEvent.text } });
          enqueue.emit({ type: 'text.delta', ...base, text: modelEvent.text });
          return;
        case 'reasoning-delta':
          enqueue.assign({ draft: { ...context.draft, reasoning: context.draft.reasoning + modelEvent.text } });
          enqueue.emit({ type: 'reasoning.delta', ...base, text: modelEvent.text });
          return;
        case 'tool-call':
          enqueue.assign({ draft: { ...context.draft, toolCalls: [...context.draft.toolCalls, modelEvent.call] } });
          return;
        case 'usage':
          enqueue.assign({ usage: addUsage(context.usage, modelEvent.usage) });
          enqueue.emit({ type: 'usage', ...base, usage: modelEvent.usage });
          return;
        case 'finish':
          return;
      }
    }),
    appendReply: enqueueActions(({ context, enqueue }) => {
      const message = assembleAssistantMessage(context.draft, context.runtime.agentName);
      enqueue.assign({ messages: [...context.messages, message] });
      enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
    }),
    startBatch: enqueueActions(({ context, enqueue }) => {
      const calls = context.draft.toolCalls;
      enqueue.assign({ batch: { calls, outcomes: calls.map(() => undefined), pending: calls.length } });
      for (const call of calls) {
        enqueue.emit({ type: 'tool.call', runId: context.runId, agent: context.runtime.agentName, step: context.step, call });
      }
    }),
    recordOutcome: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'tool.settled') return;
      const { batch } = context;
      const call = batch.calls[event.index] as ToolCall;
      const outcomes = batch.outcomes.slice();
      outcomes[event.index] = event.outcome;
      enqueue.assign({ batch: { calls: batch.calls, outcomes, pending: batch.pending - 1 } });
      const { outcome } = event;
      enqueue.emit({
        type: 'tool.result',
        runId: context.runId,
        agent: context.runtime.agentName,
        step: context.step,
        callId: call.id,
        toolName: call.name,
        content: outcome.content,
        isError: outcome.isError,
        ...(outcome.error ? { error: outcome.error } : {}),
      });
    }),
    appendToolResults: enqueueActions(({ context, enqueue }) => {
      const { batch } = context;
      const messages = context.messages.slice();
      const records = context.toolCalls.slice();
      for (let index = 0; index < batch.calls.length; index++) {
        const call = batch.calls[index] as ToolCall;
        const outcome = batch.outcomes[index];
        if (outcome === undefined) continue;
        const message: ToolMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content };
        if (outcome.isError) message.isError = true;
        messages.push(message);
        const record: ToolCallRecord = { step: context.step, call, content: outcome.content, isError: outcome.isError };
        if ('value' in outcome) record.value = outcome.value;
        records.push(record);
        enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
      }
      enqueue.assign({ messages, toolCalls: records, batch: { calls: [], outcomes: [], pending: 0 } });
    }),
    finish: enqueueActions(({ context, enqueue }, params: { reason: AgentContext['stopReason']; error?: ErrorInfo }) => {
      enqueue.assign({ stopReason: params.reason, error: params.error });
      const finished: RunEvent = {
        type: 'run.finished',
        runId: context.runId,
        agent: context.runtime.agentName,
        reason: params.reason ?? 'completed',
      };
      if (params.error) finished.error = params.error;
      enqueue.emit(finished);
    }),
  },
}).createMachine({
  id: 'agent',
  context: ({ input, spawn }) => ({
    runtime: input.runtime,
    runId: input.runId,
    messages: input.messages,
    step: 0,
    draft: emptyDraft(),
    batch: { calls: [], outcomes: [], pending: 0 },
    toolCalls: [],
    usage: zeroUsage(),
    stopReason: undefined,
    error: undefined,
    sharedState:
      input.state !== undefined && 'ref' in input.state
        ? input.state.ref
        : spawn('sharedState', {
            id: SHARED_STATE_SYSTEM_ID,
            systemId: SHARED_STATE_SYSTEM_ID,
            input: { initial: input.state?.initial ?? {} },
          }),
  }),
  initial: 'idle',
  entry: emit(({ context }) => ({
    type: 'run.started' as const,
    runId: context.runId,
    agent: context.runtime.agentName,
    input: context.messages,
  })),
  on: { abort: '.aborted' },
  states: {
    idle: { on: { start: 'thinking' } },
    thinking: {
      entry: 'startStep',
      invoke: {
        src: 'callModel',
        input: ({ context }) => ({ model: context.runtime.model, request: buildModelRequest(context) }),
        onDone: [
          { guard: 'replyHasToolCalls', target: 'acting', actions: ['appendReply', 'startBatch'] },
          { target: 'done', actions: 'appendReply' },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorInfo(event.error) }),
        },
      },
      on: { 'model.event': { actions: 'absorbModelEvent' } },
    },
    acting: {
      invoke: {
        src: 'runToolBatch',
        input: ({ context }) => ({
          tools: context.runtime.tools,
          calls: context.batch.calls,
          agentName: context.runtime.agentName,
          runId: context.runId,
          state: toolStateHandle(context),
        }),
      },
      on: { 'tool.settled': { actions: 'recordOutcome' } },
      always: [
        { guard: 'batchSettled', target: 'stepDone', actions: 'appendToolResults' },
      ],
    },
    stepDone: {
      always: [{ guard: 'stepsExhausted', target: 'maxStepsReached' }, { target: 'thinking' }],
    },
    done: { type: 'final', entry: { type: 'finish', params: { reason: 'completed' } } },
    maxStepsReached: { type: 'final', entry: { type: 'finish', params: { reason: 'max-steps' } } },
    aborted: { type: 'final', entry: { type: 'finish', params: { reason: 'aborted' } } },
    failed: {
      type: 'final',
      entry: { type: 'finish', params: ({ context }) => ({ reason: 'error' as const, error: context.error }) },
    },
  },
  output: ({ context }) => toRunResult(context),
});
