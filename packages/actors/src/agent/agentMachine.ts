import {
  type ErrorInfo,
  type Message,
  type RunEvent,
  type ToolCall,
  type ToolMessage,
  type ToolModeSetting,
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
import { type AgentContext, type ToolCallRecord, type ToolOutcome, emptyDraft } from './agentContext.js';
import type { AgentRuntime } from './agentRuntime.js';
import { type ApprovalRequest, noApprovals, pendingRequests, screenApprovalsActor } from './approvals.js';
import { needsScreening } from './needsScreening.js';
import { buildModelRequest, offeredToolsNow } from './buildModelRequest.js';
import { type ModelCallerEvent, modelCallerActor } from './modelCallerActor.js';
import { answeredBeforeExecution, limitReachedOutcome } from './loopLimits.js';
import { oneCallAtATimeRefusals } from './oneCallAtATime.js';
import { type ToolSettledEvent, type ToolsChangedEvent, toolRunnerActor } from './toolRunnerActor.js';
import { assembleAssistantMessage } from './assembleAssistantMessage.js';
import { toRunResult } from './runResult.js';
import { afterToolIteration } from './toolChoice.js';
import { settleRuleApproval, withRuleApprovals } from './toolRulesApprovals.js';
import { gateToolCalls, refusalOutcome } from './toolRulesGate.js';
import { applyBatchOutputs, endReminder } from './toolRulesProgress.js';
import { type RunSharedStateInput, toolStateHandle } from './runSharedState.js';
import { SHARED_STATE_SYSTEM_ID, sharedStateMachine } from '../sharedState/sharedStateMachine.js';

export interface AgentMachineInput {
  runtime: AgentRuntime;
  runId: string;
  messages: Message[];
  toolMode: ToolModeSetting;
  /** Initial values of the run's own shared state, or the group chat's shared state to use instead. */
  state?: RunSharedStateInput;
}

/** A human decision on a pending approval request (see `AgentRun.approve` / `reject`). */
export interface ApprovalDecisionEvent {
  type: 'approval.decide';
  id: string;
  approved: boolean;
  reason?: string;
}

export type AgentMachineEvent =
  | ModelCallerEvent
  | ToolSettledEvent
  | ToolsChangedEvent
  | ApprovalDecisionEvent
  | { type: 'start' }
  | { type: 'abort' };

const toolResultEvent = (context: AgentContext, call: ToolCall, outcome: ToolOutcome): RunEvent => ({
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

/**
 * The agent's tool loop:
 * idle → thinking (model call) → screening (which calls need approval)
 * → awaitingApproval (when some do) → acting (tool batch) → stepDone
 * → thinking … → done, with the limits' and the middleware's endings,
 * `aborted` and `failed` reachable from any working state.
 */
export const agentMachine = setup({
  types: {
    context: {} as AgentContext,
    input: {} as AgentMachineInput,
    events: {} as AgentMachineEvent,
    emitted: {} as RunEvent,
  },
  actors: {
    modelCaller: modelCallerActor,
    toolRunner: toolRunnerActor,
    screenApprovals: screenApprovalsActor,
    sharedState: sharedStateMachine,
    /** The agent's compiled rule machine, provided per agent (see `startAgentRun`); this default allows nothing. */
    toolRules: createToolRulesMachine(buildToolRuleProgram([], [])),
  },
  guards: {
    replyHasToolCalls: ({ event }) => event.type === 'model.reply' && event.reply.toolCalls.length > 0,
    nothingToScreen: ({ context }) => !needsScreening(context),
    isFinalCall: ({ context }) => context.finalCall !== undefined,
    batchSettled: ({ context }) => context.batch.pending === 0,
    isLastOutcome: ({ context }) => context.batch.pending === 1,
    stepsExhausted: ({ context }) => context.step >= context.runtime.maxSteps,
    endedByMiddleware: ({ context }) => context.endedBy !== undefined,
    toolCallsExhausted: ({ context }) => context.toolCallCount >= context.runtime.maxToolCalls,
    tooManyConsecutiveErrors: ({ context }) =>
      context.consecutiveErrorBatches >= context.runtime.maxConsecutiveErrors,
    allApprovalsDecided: ({ context }) => pendingRequests(context.approvals).length === 0,
    isPendingApproval: ({ context, event }) =>
      event.type === 'approval.decide' && pendingRequests(context.approvals).some((request) => request.id === event.id),
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
      enqueue.sendTo('model', { type: 'model.call', model: context.runtime.model, request });
      enqueue.emit({
        type: 'model.request',
        runId: context.runId,
        agent: context.runtime.agentName,
        step,
        tools: request.tools.map((tool) => tool.name),
        toolChoice: request.toolChoice,
      });
    }),
    relayDelta: emit(({ context, event }) => {
      const { kind, text } = event as Extract<ModelCallerEvent, { type: 'model.delta' }>;
      return {
        type: kind === 'text' ? ('text.delta' as const) : ('reasoning.delta' as const),
        runId: context.runId,
        agent: context.runtime.agentName,
        step: context.step,
        text,
      };
    }),
    takeReply: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'model.reply') return;
      const { usage, ...draft } = event.reply;
      enqueue.assign({ draft });
      if (usage === undefined) return;
      enqueue.assign({ usage: addUsage(context.usage, usage) });
      enqueue.emit({ type: 'usage', runId: context.runId, agent: context.runtime.agentName, step: context.step, usage });
    }),
    runBatch: enqueueActions(({ context, enqueue }) => {
      const { batch } = context;
      if (batch.pending === 0) return;
      enqueue.sendTo('toolRunner', {
        type: 'tools.run',
        tools: new Map(offeredToolsNow(context).map((tool) => [tool.name, tool])),
        calls: batch.calls,
        answered: batch.outcomes,
        step: context.step,
        liveTools: context.runtime.liveTools,
        middleware: context.runtime.middleware,
        detailedErrors: context.runtime.detailedErrors,
        agentName: context.runtime.agentName,
        runId: context.runId,
        state: toolStateHandle(context),
      });
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
        enqueue.assign({
          batch: { calls, outcomes: calls.map(() => undefined), pending: calls.length },
          approvals: noApprovals(),
        });
        for (const call of calls) enqueue.emit({ type: 'tool.call', ...base, call });
        return;
      }
      const tools = new Map(offeredToolsNow(context).map((tool) => [tool.name, tool]));
      const gated = gateToolCalls(runtime.toolRules, tools, context.rules, context.draft.toolCalls);
      const outcomes = gated.refusals.map(refusalOutcome);
      const pending = outcomes.filter((outcome) => outcome === undefined).length;
      enqueue.assign({
        batch: { calls: gated.calls, outcomes, pending, admitted: gated.admitted },
        approvals: noApprovals(),
        rules: gated.state,
      });
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
    /** Feeds the rules the human decision on a call a `requiresApproval` rule holds. */
    settleRuleApproval: enqueueActions(({ context, enqueue }) => {
      if (context.runtime.toolRules === undefined || context.rules === undefined) return;
      const settled = settleRuleApproval(context.runtime.toolRules, context.rules, context.batch, context.approvals);
      enqueue.assign({ rules: settled.state });
      for (const event of settled.events) enqueue.sendTo('toolRules', event);
    }),
    /** After a batch: the output of the conditional tool it ran picks the next tool. */
    advanceRules: enqueueActions(({ context, enqueue }) => {
      const { toolRules } = context.runtime;
      const { batch } = context;
      if (toolRules === undefined || context.rules === undefined || batch.admitted === undefined) return;
      const progress = applyBatchOutputs(toolRules, context.rules, { ...batch, admitted: batch.admitted });
      enqueue.assign({ rules: progress.state, ...(progress.error ? { error: progress.error } : {}) });
      for (const event of progress.events) enqueue.sendTo('toolRules', event);
    }),
    /** A final answer the rules do not accept yet: tell the model what is missing. */
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
    requestApprovals: enqueueActions(({ context, enqueue }, requests: ApprovalRequest[]) => {
      enqueue.assign({ approvals: { requests, decisions: {} } });
      for (const request of requests) {
        enqueue.emit({
          type: 'approval.requested',
          runId: context.runId,
          agent: context.runtime.agentName,
          step: request.step,
          id: request.id,
          toolName: request.toolName,
          arguments: request.arguments,
        });
      }
    }),
    recordDecision: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'approval.decide') return;
      const request = context.approvals.requests.find((candidate) => candidate.id === event.id) as ApprovalRequest;
      const decision = event.reason === undefined ? { approved: event.approved } : { approved: event.approved, reason: event.reason };
      enqueue.assign({
        approvals: { ...context.approvals, decisions: { ...context.approvals.decisions, [event.id]: decision } },
      });
      enqueue.emit({
        type: 'approval.decided',
        runId: context.runId,
        agent: context.runtime.agentName,
        step: request.step,
        id: event.id,
        toolName: request.toolName,
        ...decision,
      });
    }),
    /** Answers the calls that will not run (rejected, over the tool-call budget) and counts the rest. */
    prepareBatch: enqueueActions(({ context, enqueue }) => {
      const { batch } = context;
      // Calls the tool rules refused are answered already; a oneCallAtATime call beside others is refused;
      // the rest are checked here.
      const refusals = oneCallAtATimeRefusals(offeredToolsNow(context), batch.calls);
      const open = batch.calls.filter((_, index) => batch.outcomes[index] === undefined && !refusals.has(index));
      const answeredOpen = answeredBeforeExecution(open, context.approvals, context.toolCallCount, context.runtime.maxToolCalls);
      let next = 0;
      const answered = batch.outcomes.map((outcome, index) => outcome ?? refusals.get(index) ?? answeredOpen[next++]);
      const executing = answered.filter((outcome) => outcome === undefined).length;
      enqueue.assign({
        batch: { ...batch, outcomes: answered, pending: executing },
        toolCallCount: context.toolCallCount + executing,
      });
      answered.forEach((outcome, index) => {
        if (outcome !== undefined && batch.outcomes[index] === undefined) enqueue.emit(toolResultEvent(context, batch.calls[index] as ToolCall, outcome));
      });
    }),
    recordOutcome: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'tool.settled') return;
      const { batch } = context;
      const call = batch.calls[event.index] as ToolCall;
      const outcomes = batch.outcomes.slice();
      outcomes[event.index] = event.outcome;
      enqueue.assign({ batch: { ...batch, outcomes, pending: batch.pending - 1 } });
      if (event.outcome.endsRun && context.endedBy === undefined) {
        enqueue.assign({ endedBy: { callId: call.id, toolName: call.name } });
      }
      enqueue.emit(toolResultEvent(context, call, event.outcome));
    }),
    reportToolsChanged: emit(({ context, event }) => {
      const changed = event as ToolsChangedEvent;
      return {
        type: 'tools.changed' as const,
        runId: context.runId,
        agent: context.runtime.agentName,
        step: context.step,
        callId: changed.callId,
        added: changed.change.added,
        removed: changed.change.removed,
        tools: context.runtime.liveTools.names(),
      };
    }),
    appendToolResults: enqueueActions(({ context, enqueue }) => {
      const { batch } = context;
      const messages = context.messages.slice();
      const records = context.toolCalls.slice();
      let failed = false;
      for (let index = 0; index < batch.calls.length; index++) {
        const call = batch.calls[index] as ToolCall;
        const outcome = batch.outcomes[index];
        if (outcome === undefined) continue;
        const message: ToolMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content };
        if (outcome.isError) message.isError = true;
        failed ||= outcome.isError;
        messages.push(message);
        const record: ToolCallRecord = { step: context.step, call, content: outcome.content, isError: outcome.isError };
        if ('value' in outcome) record.value = outcome.value;
        if (outcome.refusedBy !== undefined) record.refusedBy = outcome.refusedBy;
        records.push(record);
        enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
      }
      enqueue.assign({
        messages,
        toolCalls: records,
        batch: { calls: [], outcomes: [], pending: 0 },
        approvals: noApprovals(),
        toolMode: afterToolIteration(context.toolMode),
        consecutiveErrorBatches: failed ? context.consecutiveErrorBatches + 1 : 0,
      });
    }),
    /** The last reply of a run that hit a limit: any tool calls in it are answered, not run. */
    answerFinalReply: enqueueActions(({ context, enqueue }) => {
      const messages = context.messages.slice();
      const records = context.toolCalls.slice();
      for (const call of context.draft.toolCalls) {
        const outcome = limitReachedOutcome(context.finalCall ?? 'max-tool-calls', context.runtime);
        enqueue.emit(toolResultEvent(context, call, outcome));
        const message: ToolMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: outcome.content, isError: true };
        messages.push(message);
        records.push({ step: context.step, call, content: outcome.content, isError: true });
        enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
      }
      enqueue.assign({ messages, toolCalls: records });
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
    toolMode: input.toolMode,
    toolCallCount: 0,
    consecutiveErrorBatches: 0,
    finalCall: undefined,
    approvals: noApprovals(),
    endedBy: undefined,
    sharedState:
      input.state !== undefined && 'ref' in input.state
        ? input.state.ref
        : spawn('sharedState', {
            id: SHARED_STATE_SYSTEM_ID,
            systemId: SHARED_STATE_SYSTEM_ID,
            input: { initial: input.state?.initial ?? {} },
          }),
  }),
  invoke: [
    { id: 'model', src: 'modelCaller' },
    { id: 'toolRunner', src: 'toolRunner' },
  ],
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
      on: {
        'model.delta': { actions: 'relayDelta' },
        'model.reply': [
          { guard: 'isFinalCall', target: 'limitReached', actions: ['takeReply', 'appendReply', 'answerFinalReply'] },
          { guard: 'replyHasToolCalls', target: 'batchReady', actions: ['takeReply', 'appendReply', 'startBatch'] },
          { guard: 'rulesForbidEnd', target: 'stepDone', actions: ['takeReply', 'appendReply', 'remindOfRules'] },
          { target: 'done', actions: ['takeReply', 'appendReply', 'endRules'] },
        ],
        'model.failed': {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorInfo(event.error) }),
        },
      },
    },
    /** Calls that may need a human decision are screened first; most batches go straight to acting. */
    batchReady: {
      always: [{ guard: 'nothingToScreen', target: 'acting' }, { target: 'screening' }],
    },
    screening: {
      invoke: {
        src: 'screenApprovals',
        input: ({ context }) => ({
          // Calls the tool rules refused are never asked about.
          calls: context.batch.calls.filter((_, index) => context.batch.outcomes[index] === undefined),
          tools: new Map(offeredToolsNow(context).map((tool) => [tool.name, tool])),
          liveTools: context.runtime.liveTools,
          state: toolStateHandle(context),
          agentName: context.runtime.agentName,
          runId: context.runId,
          step: context.step,
        }),
        onDone: [
          {
            guard: ({ context, event }) => withRuleApprovals(event.output, context.rules, context.batch, context.step).length > 0,
            target: 'awaitingApproval',
            actions: {
              type: 'requestApprovals',
              params: ({ context, event }) => withRuleApprovals(event.output, context.rules, context.batch, context.step),
            },
          },
          { target: 'acting' },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorInfo(event.error) }) },
      },
    },
    awaitingApproval: {
      on: { 'approval.decide': { guard: 'isPendingApproval', actions: 'recordDecision' } },
      always: { guard: 'allApprovalsDecided', target: 'acting' },
    },
    acting: {
      entry: ['settleRuleApproval', 'prepareBatch', 'runBatch'],
      on: {
        'tool.settled': [
          // The last outcome of the batch moves on in the same step; the others are only recorded.
          { guard: 'isLastOutcome', target: 'stepDone', actions: ['recordOutcome', 'advanceRules', 'appendToolResults'] },
          { actions: 'recordOutcome' },
        ],
        'tools.changed': { actions: 'reportToolsChanged' },
      },
      // A batch whose calls were all answered before running (refused, rejected) has nothing to wait for.
      always: [{ guard: 'batchSettled', target: 'stepDone', actions: ['advanceRules', 'appendToolResults'] }],
    },
    stepDone: {
      always: [
        { guard: 'endedByMiddleware', target: 'endedByMiddleware' },
        { guard: 'rulesFailed', target: 'failed' },
        { guard: 'rulesEnded', target: 'terminalToolCalled' },
        { guard: 'stepsExhausted', target: 'maxStepsReached' },
        { guard: 'toolCallsExhausted', target: 'thinking', actions: assign({ finalCall: 'max-tool-calls' }) },
        {
          guard: 'tooManyConsecutiveErrors',
          target: 'thinking',
          actions: assign({ finalCall: 'max-consecutive-errors' }),
        },
        { target: 'thinking' },
      ],
    },
    done: { type: 'final', entry: { type: 'finish', params: { reason: 'completed' } } },
    terminalToolCalled: { type: 'final', entry: { type: 'finish', params: { reason: 'terminal-tool' } } },
    maxStepsReached: { type: 'final', entry: { type: 'finish', params: { reason: 'max-steps' } } },
    limitReached: {
      type: 'final',
      entry: { type: 'finish', params: ({ context }) => ({ reason: context.finalCall ?? 'max-tool-calls' }) },
    },
    endedByMiddleware: { type: 'final', entry: { type: 'finish', params: { reason: 'ended-by-middleware' } } },
    aborted: { type: 'final', entry: { type: 'finish', params: { reason: 'aborted' } } },
    failed: {
      type: 'final',
      entry: { type: 'finish', params: ({ context }) => ({ reason: 'error' as const, error: context.error }) },
    },
  },
  output: ({ context }) => toRunResult(context),
});
