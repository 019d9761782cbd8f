import {
  type ErrorInfo,
  type Message,
  type RunEvent,
  type ToolCall,
  type ToolMessage,
  addUsage,
  applyEnd,
  buildToolRuleProgram,
  canEnd,
  createToolRulesMachine,
  initialToolRuleState,
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
import { gateToolCalls, refusalOutcome } from './toolRulesGate.js';
import { applyBatchOutputs, endReminder } from './toolRulesProgress.js';
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
  actors: {
    callModel: callModelActor,
    runToolBatch: runToolBatchActor,
    sharedState: sharedStateMachine,
    /** The agent's compiled rule machine, provided per agent (see `startAgentRun`); this default allows nothing. */
    toolRules: createToolRulesMachine(buildToolRuleProgram([], [])),
  },
  guards: {
    replyHasToolCalls: ({ context }) => context.draft.toolCalls.length > 0,
    batchSettled: ({ context }) => context.batch.pending === 0,
    stepsExhausted: ({ context }) => context.step >= context.runtime.maxSteps,
    rulesForbidEnd: ({ context }) =>
      context.runtime.toolRules !== undefined &&
      context.rules !== undefined &&
      !canEnd(context.runtime.toolRules.program, context.rules),
    rulesEnded: ({ context }) => context.rules?.phase === 'done',
    rulesFailed: ({ context }) => context.rules?.phase === 'failed',
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
      const { runtime } = context;
      const base = { runId: context.runId, agent: runtime.agentName, step: context.step };
      if (runtime.toolRules === undefined || context.rules === undefined) {
        const calls = context.draft.toolCalls;
        enqueue.assign({ batch: { calls, outcomes: calls.map(() => undefined), pending: calls.length } });
        for (const call of calls) enqueue.emit({ type: 'tool.call', ...base, call });
        return;
      }
      // Issue 5 brings approvers; until then calls that need approval are refused.
      const gated = gateToolCalls(runtime.toolRules, runtime.tools, context.rules, context.draft.toolCalls, { approver: false });
      const outcomes = gated.refusals.map(refusalOutcome);
      const pending = outcomes.filter((outcome) => outcome === undefined).length;
      enqueue.assign({ batch: { calls: gated.calls, outcomes, pending, admitted: gated.admitted }, rules: gated.state });
      for (const event of gated.events) enqueue.sendTo('toolRules', event);
      gated.calls.forEach((call, index) => {
        const refusal = gated.refusals[index];
        if (refusal === undefined) enqueue.emit({ type: 'tool.call', ...base, call });
        else {
          const { rule, reason, allowedTools, content } = refusal;
          enqueue.emit({ type: 'tool.refused', ...base, call, rule, reason, allowedTools, content });
        }
      });
    }),
    advanceRules: enqueueActions(({ context, enqueue }) => {
      const { toolRules } = context.runtime;
      const { batch } = context;
      if (toolRules === undefined || context.rules === undefined || batch.admitted === undefined) return;
      const progress = applyBatchOutputs(toolRules, context.rules, { ...batch, admitted: batch.admitted });
      enqueue.assign({ rules: progress.state, ...(progress.error ? { error: progress.error } : {}) });
      for (const event of progress.events) enqueue.sendTo('toolRules', event);
    }),
    remindOfRules: enqueueActions(({ context, enqueue }) => {
      if (context.runtime.toolRules === undefined || context.rules === undefined) return;
      const message = endReminder(context.runtime.toolRules, context.rules);
      if (message === undefined) return;
      enqueue.assign({ messages: [...context.messages, message] });
      enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
    }),
    endRules: enqueueActions(({ context, enqueue }) => {
      if (context.rules === undefined) return;
      enqueue.assign({ rules: applyEnd(context.rules) });
      enqueue.sendTo('toolRules', { type: 'end' });
    }),
    recordOutcome: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'tool.settled') return;
      const { batch } = context;
      const call = batch.calls[event.index] as ToolCall;
      const outcomes = batch.outcomes.slice();
      outcomes[event.index] = event.outcome;
      enqueue.assign({ batch: { ...batch, outcomes, pending: batch.pending - 1 } });
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
        if (outcome.refusedBy !== undefined) record.refusedBy = outcome.refusedBy;
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
    rules: input.runtime.toolRules ? initialToolRuleState() : undefined,
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
  entry: [
    emit(({ context }) => ({
      type: 'run.started' as const,
      runId: context.runId,
      agent: context.runtime.agentName,
      input: context.messages,
    })),
    enqueueActions(({ context, enqueue }) => {
      if (context.runtime.toolRules) enqueue.spawnChild('toolRules', { id: 'toolRules' });
    }),
  ],
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
          { guard: 'rulesForbidEnd', target: 'stepDone', actions: ['appendReply', 'remindOfRules'] },
          { target: 'done', actions: ['appendReply', 'endRules'] },
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
          answered: context.batch.outcomes.map((outcome) => outcome !== undefined),
          agentName: context.runtime.agentName,
          runId: context.runId,
          state: toolStateHandle(context),
        }),
      },
      on: { 'tool.settled': { actions: 'recordOutcome' } },
      always: [
        { guard: 'batchSettled', target: 'stepDone', actions: ['advanceRules', 'appendToolResults'] },
      ],
    },
    stepDone: {
      always: [
        { guard: 'rulesFailed', target: 'failed' },
        { guard: 'rulesEnded', target: 'terminalToolCalled' },
        { guard: 'stepsExhausted', target: 'maxStepsReached' },
        { target: 'thinking' },
      ],
    },
    done: { type: 'final', entry: { type: 'finish', params: { reason: 'completed' } } },
    terminalToolCalled: { type: 'final', entry: { type: 'finish', params: { reason: 'terminal-tool' } } },
    maxStepsReached: { type: 'final', entry: { type: 'finish', params: { reason: 'max-steps' } } },
    aborted: { type: 'final', entry: { type: 'finish', params: { reason: 'aborted' } } },
    failed: {
      type: 'final',
      entry: { type: 'finish', params: ({ context }) => ({ reason: 'error' as const, error: context.error }) },
    },
  },
  output: ({ context }) => toRunResult(context),
});
