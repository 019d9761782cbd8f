import { type ErrorInfo, type Message, type RunEvent, type ToolModeSetting, canEnd, initialToolRuleState } from '@agentchart/core';
import { buildToolRuleProgram, createToolRulesMachine, toErrorInfo, zeroUsage } from '@agentchart/core/internal';
import { type AnyActorRef, type AnyEventObject, assign, emit, enqueueActions, setup } from 'xstate';
import { type AgentContext, emptyDraft, noBatch } from './agentContext.js';
import type { AgentRuntime } from './agentRuntime.js';
import { agentSteps, runSteps, toolProgressEvent } from './agentSteps.js';
import { type ApprovalRequest, noApprovals, pendingRequests, screenApprovalsActor } from './approvals.js';
import { offeredToolsByName } from './buildModelRequest.js';
import type { ModelCallerEvent } from './modelCaller.js';
import { modelCallerActor } from './modelCallerActor.js';
import { withModelCaller } from './agentModelCaller.js';
import { continuesAfterBatch, runsWithoutScreening } from './fastPaths.js';
import { agentContextNow, stepContinues } from './fusedStep.js';
import { callsToScreen, needsScreening, requestsToAsk } from './needsScreening.js';
import { toRunResult } from '../run/runResult.js';
import { tokenBudgetSpent } from './runTokenBudget.js';
import { type RunSharedStateInput, toolStateHandle } from '../run/runSharedState.js';
import { type ToolProgressEvent, type ToolSettledEvent, type ToolsChangedEvent, toolRunnerActor } from './toolRunnerActor.js';
import { SHARED_STATE_SYSTEM_ID, sharedStateMachine } from '../../sharedState/sharedStateMachine.js';
import { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';

export interface AgentMachineInput {
  runtime: AgentRuntime;
  runId: string;
  messages: Message[];
  toolMode: ToolModeSetting;
  /** Initial values of the run's own shared state, or the group chat's shared state to use instead. */
  state?: RunSharedStateInput;
}

/**
 * A run's context at its start, with the shared state it uses (the machine's
 * context factory; a chat's direct agent turn starts from it too).
 * @example
 * const context = initialAgentContext({ runtime, runId, messages, toolMode: 'auto' }, chatStateSlot);
 */
export function initialAgentContext(input: AgentMachineInput, sharedState: SharedStateSlot): AgentContext {
  return {
    runtime: input.runtime,
    runId: input.runId,
    messages: input.messages,
    step: 0,
    draft: emptyDraft(),
    batch: noBatch(),
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
    sharedState,
  };
}

/** A human decision on a pending approval request (see `AgentRun.approve` / `reject`). */
export interface ApprovalDecisionEvent {
  type: 'approval.decide';
  id: string;
  approved: boolean;
  reason?: string;
}

/** A run kept in a store lost its lease (`RUN_LEASE_LOST`): it fails with `error` and nothing more runs. */
export interface RunFailEvent {
  type: 'run.fail';
  error: ErrorInfo;
}

/** A run restored from a checkpoint goes on from the state it was in (see `restoreRun`). */
export interface RunResumeEvent {
  type: 'resume';
  at: 'stepDone' | 'batchReady' | 'acting';
}

/** A tool source's list change left the run's tools unusable (see `followToolSources`): the run fails with `error`. */
export interface ToolsUnusableEvent {
  type: 'tools.unusable';
  error: ErrorInfo;
}

export type AgentMachineEvent =
  | ModelCallerEvent
  | ToolSettledEvent
  | ToolProgressEvent
  | ToolsChangedEvent
  | ToolsUnusableEvent
  | ApprovalDecisionEvent
  | RunFailEvent
  | RunResumeEvent
  | { type: 'start' }
  | { type: 'abort' };

/** What `withToolRunner` needs of XState's `enqueue`, and what it gives `runSteps`. */
interface BatchEnqueue {
  assign(patch: Partial<AgentContext>): void;
  emit(event: RunEvent): void;
  sendTo(childId: string, event: AnyEventObject): void;
  spawnChild(src: 'toolRunner', options: { id: 'toolRunner' }): unknown;
}

/**
 * The run's tool runner is spawned with its first full-path batch, not at
 * the run's start (docs/performance.md, "The fused loop"): before sending it
 * the batch, the step spawns it if the run has none yet (a restored run has
 * one from its snapshot, see `rebuildChildren`).
 */
function withToolRunner(enqueue: BatchEnqueue, self: AnyActorRef): BatchEnqueue {
  if ((self.getSnapshot() as { children: Record<string, unknown> }).children.toolRunner !== undefined) return enqueue;
  return {
    assign: (patch) => enqueue.assign(patch),
    emit: (event) => enqueue.emit(event),
    sendTo: (childId, command) => {
      if (childId === 'toolRunner') enqueue.spawnChild('toolRunner', { id: 'toolRunner' });
      enqueue.sendTo(childId, command);
    },
    spawnChild: (src, options) => enqueue.spawnChild(src, options),
  };
}

/** The steps that take a model reply (after a fused loop's steps) into the transcript. */
const replyTaken = [agentSteps.takeLoopSteps, agentSteps.takeReply, agentSteps.appendReply];
/** The steps that start a batch, and those that close one. */
const batchStart = [agentSteps.settleRuleApproval, agentSteps.prepareBatch, agentSteps.runBatch];
const batchEnd = [agentSteps.recordOutcome, agentSteps.advanceRules, agentSteps.appendToolResults];

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
    runsWithoutScreening: ({ context, event }) => runsWithoutScreening(context, event),
    continuesAfterBatch: ({ context, event }) => continuesAfterBatch(context, event),
    isFinalCall: ({ context }) => context.finalCall !== undefined,
    batchSettled: ({ context }) => context.batch.pending === 0,
    isLastOutcome: ({ context }) => context.batch.pending === 1,
    stepsExhausted: ({ context }) => context.step >= context.runtime.maxSteps,
    tokenBudgetSpent: ({ context }) => tokenBudgetSpent(context),
    endedByMiddleware: ({ context }) => context.endedBy !== undefined,
    toolCallsExhausted: ({ context }) => context.toolCallCount >= context.runtime.maxToolCalls,
    tooManyConsecutiveErrors: ({ context }) => context.consecutiveErrorBatches >= context.runtime.maxConsecutiveErrors,
    allApprovalsDecided: ({ context }) => pendingRequests(context.approvals).length === 0,
    isPendingApproval: ({ context, event }) =>
      event.type === 'approval.decide' && pendingRequests(context.approvals).some((request) => request.id === event.id),
    rulesForbidEnd: ({ context }) =>
      context.runtime.toolRules !== undefined && context.rules !== undefined && !canEnd(context.runtime.toolRules.program, context.rules),
    rulesEnded: ({ context }) => context.rules?.phase === 'done',
    rulesFailed: ({ context }) => context.rules?.phase === 'failed',
    resumesAtBatchStart: ({ event }) => event.type === 'resume' && event.at === 'acting',
    resumesAtBatch: ({ event }) => event.type === 'resume' && event.at === 'batchReady',
    fusedStepContinues: ({ context, event }) => event.type === 'step.done' && stepContinues(context, event.patch),
    fusedStepBusy: ({ context }) => context.runtime.fusedStep.busy,
  },
  actions: {
    startStep: enqueueActions(({ context, event, enqueue, self }) =>
      runSteps(context, event, withModelCaller(enqueue, self, context), agentSteps.startStep),
    ),
    /** A model reply: with tool calls, or an answer at a limit, too early for the rules, or final. */
    acceptToolCalls: enqueueActions(({ context, event, enqueue }) =>
      runSteps(context, event, enqueue, ...replyTaken, agentSteps.startBatch, agentSteps.checkpointReply),
    ),
    /** The common step: a reply whose calls need no screening starts its batch in the same action. */
    acceptAndRunToolCalls: enqueueActions(({ context, event, enqueue, self }) =>
      runSteps(context, event, withToolRunner(enqueue, self), ...replyTaken, agentSteps.startBatch, ...batchStart),
    ),
    acceptAnswerAtLimit: enqueueActions(({ context, event, enqueue }) =>
      runSteps(context, event, enqueue, ...replyTaken, agentSteps.answerFinalReply),
    ),
    acceptEarlyAnswer: enqueueActions(({ context, event, enqueue }) =>
      runSteps(context, event, enqueue, ...replyTaken, agentSteps.countMalformedReply, agentSteps.remindOfRules, agentSteps.checkpointReply),
    ),
    acceptFinalAnswer: enqueueActions(({ context, event, enqueue }) =>
      runSteps(context, event, enqueue, ...replyTaken, agentSteps.endRules, agentSteps.completeRun),
    ),
    takeFusedStep: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, agentSteps.takeFusedStep)),
    /** The common fused step: the run goes on, and the next model call starts in the same action. */
    takeFusedStepAndContinue: enqueueActions(({ context, event, enqueue, self }) =>
      runSteps(context, event, withModelCaller(enqueue, self, context), agentSteps.takeFusedStep, agentSteps.startStep),
    ),
    takeStoppedStep: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, agentSteps.takeStoppedStep)),
    /** The fused step is running step functions: the event waits until it is done (see `FusedStepSlot`). */
    deferToFusedStep: ({ context, event }) => {
      context.runtime.fusedStep.deferred.push(event);
    },
    recordDecision: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, agentSteps.recordDecision)),
    beginBatch: enqueueActions(({ context, event, enqueue, self }) =>
      runSteps(context, event, withToolRunner(enqueue, self), agentSteps.checkpointBatchStart, ...batchStart),
    ),
    recordOutcome: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, agentSteps.recordOutcome)),
    /** The last outcome of a batch; or a batch whose calls were all answered before running. */
    finishBatch: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, ...batchEnd, agentSteps.checkpointBatchEnd)),
    /** The last outcome of a batch after which the run simply goes on: the next model call starts in the same action. */
    finishBatchAndContinue: enqueueActions(({ context, event, enqueue, self }) =>
      runSteps(context, event, withModelCaller(enqueue, self, context), ...batchEnd, agentSteps.startStep),
    ),
    answerAbortedBatch: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, agentSteps.answerAbortedBatch)),
    closeAnsweredBatch: enqueueActions(({ context, event, enqueue }) =>
      runSteps(context, event, enqueue, agentSteps.advanceRules, agentSteps.appendToolResults, agentSteps.checkpointBatchEnd),
    ),
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
    /** The provider asked the model again within the step (see `ModelEvent` `malformed-reply`). */
    relayMalformedReply: emit(({ context, event }) => {
      const { reason, message } = event as Extract<ModelCallerEvent, { type: 'model.malformed' }>;
      return { type: 'model.malformed' as const, runId: context.runId, agent: context.runtime.agentName, step: context.step, reason, message };
    }),
    /** A running call reported progress (see `ToolContext.reportProgress`). */
    relayToolProgress: emit(({ context, event }) => {
      const { callId, toolName, progress } = event as ToolProgressEvent;
      return toolProgressEvent(context, callId, toolName, progress);
    }),
    requestApprovals: enqueueActions(({ context, enqueue }, requests: ApprovalRequest[]) => {
      enqueue.assign({ approvals: { requests, decisions: {} } });
      context.runtime.checkpoints?.waiting({ ...context, approvals: { requests, decisions: {} } });
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
    reportToolsChanged: emit(({ context, event }) => {
      const changed = event as ToolsChangedEvent;
      return {
        type: 'tools.changed' as const,
        runId: context.runId,
        agent: context.runtime.agentName,
        // A source's change during a fused loop: the loop's step, not the one the machine last heard of.
        step: agentContextNow(context).step,
        callId: changed.callId,
        added: changed.change.added,
        removed: changed.change.removed,
        tools: context.runtime.liveTools.names(),
      };
    }),
    finish: enqueueActions(({ context, enqueue }, params: { reason: AgentContext['stopReason']; error?: ErrorInfo }) => {
      // A final answer wrote its ending with its own assign (`completeRun`): no second copy of the snapshot.
      if (context.stopReason !== params.reason || context.error !== params.error) enqueue.assign({ stopReason: params.reason, error: params.error });
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
  // The run's own shared state is made when first needed (`SharedStateSlot`); an inspected run shows it from the start.
  context: ({ input, spawn, self }) =>
    initialAgentContext(
      input,
      input.state !== undefined && 'slot' in input.state
        ? input.state.slot
        : input.runtime.inspected === true
          ? SharedStateSlot.of(
              spawn('sharedState', {
                id: SHARED_STATE_SYSTEM_ID,
                systemId: SHARED_STATE_SYSTEM_ID,
                input: { initial: input.state?.initial ?? {} },
              }),
            )
          : SharedStateSlot.lazy(self, input.state?.initial ?? {}, SHARED_STATE_SYSTEM_ID),
    ),
  // The tool runner is spawned with the run's first full-path batch (`withToolRunner`): a run whose steps are all
  // fused, or that calls no tool, never makes one. The model caller is the agent's own (`withModelCaller`), or a
  // child spawned with the first model call of an inspected run.
  initial: 'idle',
  entry: [
    emit(({ context }) => ({
      type: 'run.started' as const,
      runId: context.runId,
      agent: context.runtime.agentName,
      input: context.messages,
    })),
    enqueueActions(({ context, enqueue }) => {
      // The rules' machine, for the inspector only: the gate decides with the same program (docs/tool-rules.md).
      if (context.runtime.toolRules && context.runtime.mirrorToolRules) enqueue.spawnChild('toolRules', { id: 'toolRules' });
    }),
  ],
  on: {
    abort: '.aborted',
    // A tool source's list changed (any state): reported; the next model request sees it.
    'tools.changed': { actions: 'reportToolsChanged' },
    'tools.unusable': { target: '.failed', actions: assign({ error: ({ event }) => event.error }) },
    'run.fail': { target: '.failed', actions: assign({ error: ({ event }) => event.error }) },
  },
  states: {
    idle: {
      on: {
        start: { target: 'thinking', actions: 'startStep' },
        // A run restored from a store checkpoint (`restoreRun`): back to the state it was in.
        resume: [
          { guard: 'resumesAtBatchStart', target: 'acting', actions: 'beginBatch' },
          { guard: 'resumesAtBatch', target: 'batchReady' },
          { target: 'stepDone' },
        ],
      },
    },
    // Every transition into `thinking` starts the model call in its own action (`startStep`) rather than
    // as an entry action, and every one into `acting` starts the batch (`beginBatch`): the common step then
    // costs one XState action per transition instead of two (docs/performance.md).
    thinking: {
      on: {
        'model.delta': { actions: 'relayDelta' },
        'model.malformed': { actions: 'relayMalformedReply' },
        'model.reply': [
          { guard: 'isFinalCall', target: 'limitReached', actions: 'acceptAnswerAtLimit' },
          { guard: 'runsWithoutScreening', target: 'acting', actions: 'acceptAndRunToolCalls' },
          { guard: 'replyHasToolCalls', target: 'batchReady', actions: 'acceptToolCalls' },
          { guard: 'rulesForbidEnd', target: 'stepDone', actions: 'acceptEarlyAnswer' },
          { target: 'done', actions: 'acceptFinalAnswer' },
        ],
        'model.failed': {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorInfo(event.error) }),
        },
        // A fused step (docs/performance.md): the reply and its whole batch, taken in the model caller,
        // or the fused loop's steps, when it ends at a limit or the run's end.
        'step.done': [
          { guard: 'fusedStepContinues', actions: 'takeFusedStepAndContinue' },
          { target: 'stepDone', actions: 'takeFusedStep' },
        ],
        // The fused loop's steps, before the failure of the call it made: `model.failed` follows.
        'steps.taken': { actions: 'takeFusedStep' },
        abort: { guard: 'fusedStepBusy', actions: 'deferToFusedStep' },
        'tools.unusable': { guard: 'fusedStepBusy', actions: 'deferToFusedStep' },
      },
    },
    /** Calls that may need a human decision are screened first; most batches go straight to acting. */
    batchReady: {
      always: [{ guard: 'nothingToScreen', target: 'acting', actions: 'beginBatch' }, { target: 'screening' }],
    },
    screening: {
      invoke: {
        src: 'screenApprovals',
        input: ({ context }) => ({
          // Calls that will not run (refused by the rules, or a oneCallAtATime call beside others) are never asked about.
          calls: callsToScreen(context),
          tools: offeredToolsByName(context),
          liveTools: context.runtime.liveTools,
          state: toolStateHandle(context),
          agentName: context.runtime.agentName,
          runId: context.runId,
          step: context.step,
        }),
        onDone: [
          {
            guard: ({ context, event }) => requestsToAsk(event.output, context).length > 0,
            target: 'awaitingApproval',
            actions: {
              type: 'requestApprovals',
              params: ({ context, event }) => requestsToAsk(event.output, context),
            },
          },
          { target: 'acting', actions: 'beginBatch' },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorInfo(event.error) }) },
      },
    },
    awaitingApproval: {
      on: { 'approval.decide': { guard: 'isPendingApproval', actions: 'recordDecision' } },
      always: { guard: 'allApprovalsDecided', target: 'acting', actions: 'beginBatch' },
    },
    acting: {
      on: {
        'tool.settled': [
          // The last outcome of the batch moves on in the same step; the others are only recorded.
          { guard: 'continuesAfterBatch', target: 'thinking', actions: 'finishBatchAndContinue' },
          { guard: 'isLastOutcome', target: 'stepDone', actions: 'finishBatch' },
          { actions: 'recordOutcome' },
        ],
        'tools.changed': { actions: 'reportToolsChanged' },
        'tool.progress': { actions: 'relayToolProgress' },
      },
      // A batch whose calls were all answered before running (refused, rejected) has nothing to wait for.
      always: [{ guard: 'batchSettled', target: 'stepDone', actions: 'closeAnsweredBatch' }],
    },
    stepDone: {
      always: [
        { guard: 'endedByMiddleware', target: 'endedByMiddleware' },
        { guard: 'rulesFailed', target: 'failed' },
        { guard: 'rulesEnded', target: 'terminalToolCalled' },
        { guard: 'tokenBudgetSpent', target: 'tokenBudgetSpent' },
        { guard: 'stepsExhausted', target: 'maxStepsReached' },
        { guard: 'toolCallsExhausted', target: 'thinking', actions: [assign({ finalCall: 'max-tool-calls' }), 'startStep'] },
        {
          guard: 'tooManyConsecutiveErrors',
          target: 'thinking',
          actions: [assign({ finalCall: 'max-consecutive-errors' }), 'startStep'],
        },
        { target: 'thinking', actions: 'startStep' },
      ],
    },
    done: { type: 'final', entry: { type: 'finish', params: { reason: 'completed' } } },
    terminalToolCalled: { type: 'final', entry: { type: 'finish', params: { reason: 'terminal-tool' } } },
    maxStepsReached: { type: 'final', entry: { type: 'finish', params: { reason: 'max-steps' } } },
    tokenBudgetSpent: { type: 'final', entry: { type: 'finish', params: { reason: 'token-budget' } } },
    limitReached: {
      type: 'final',
      entry: { type: 'finish', params: ({ context }) => ({ reason: context.finalCall ?? 'max-tool-calls' }) },
    },
    endedByMiddleware: { type: 'final', entry: { type: 'finish', params: { reason: 'ended-by-middleware' } } },
    aborted: { type: 'final', entry: ['takeStoppedStep', 'answerAbortedBatch', { type: 'finish', params: { reason: 'aborted' } }] },
    failed: {
      type: 'final',
      entry: ['takeStoppedStep', { type: 'finish', params: ({ context }) => ({ reason: 'error' as const, error: context.error }) }],
    },
  },
  output: ({ context }) => toRunResult(context),
});
