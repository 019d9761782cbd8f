import { type ErrorInfo, type RunEvent, initialToolRuleState } from '@agentchart/core';
import { buildToolRuleProgram, createToolRulesMachine, toErrorInfo, zeroUsage } from '@agentchart/core/internal';
import { type AnyActorRef, type AnyEventObject, and, assign, emit, enqueueActions, sendParent, setup } from 'xstate';
import { type AgentContext, EMPTY_DRAFT, NO_BATCH } from './agentContext.js';
import { agentSteps, runSteps, toolProgressEvent } from './agentSteps.js';
import { AFTER_STEP, type AgentTarget, stepPlan, stepTransitions, takePlan, writePlan } from './agentTransitions.js';
import { type ApprovalRequest, NO_APPROVALS, pendingRequests, screenApprovalsActor } from './approvals.js';
import { offeredToolsByName } from './buildModelRequest.js';
import { type ModelCallerEvent, modelCallerActor } from './modelCaller.js';
import { callsToScreen, requestsToAsk } from './needsScreening.js';
import { toRunResult } from '../run/runResult.js';
import type { AgentTurnDoneEvent } from './agentTurn.js';
import { toolStateHandle } from '../run/runSharedState.js';
import { type ToolProgressEvent, type ToolsChangedEvent, toolRunnerActor } from './toolRunnerActor.js';
import { SHARED_STATE_SYSTEM_ID, sharedStateMachine } from '../../sharedState/sharedStateMachine.js';
import { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';
import type { AgentMachineEvent } from './agentMachineEvent.js';
import type { AgentMachineInput } from './agentMachineInput.js';

/**
 * A run's context at its start, with the shared state it uses (the machine's
 * context factory; a resident agent's next turn starts from it too).
 * @example
 * const context = initialAgentContext({ runtime, runId, messages, toolMode: 'auto' }, chatStateSlot);
 */
export function initialAgentContext(input: AgentMachineInput, sharedState: SharedStateSlot): AgentContext {
  return {
    runtime: input.runtime,
    runId: input.runId,
    messages: input.messages,
    step: 0,
    draft: EMPTY_DRAFT,
    batch: NO_BATCH,
    toolCalls: [],
    usage: zeroUsage(),
    rules: input.runtime.toolRules ? initialToolRuleState() : undefined,
    stopReason: undefined,
    error: undefined,
    toolMode: input.toolMode,
    toolCallCount: 0,
    consecutiveErrorBatches: 0,
    finalCall: undefined,
    approvals: NO_APPROVALS,
    endedBy: undefined,
    sharedState,
  };
}

/** Whether the run has its tool runner child now (spawned with its first batch, or restored). */
function hasToolRunner(self: AnyActorRef): boolean {
  return (self.getSnapshot() as { children: Record<string, unknown> }).children.toolRunner !== undefined;
}

/** What `withToolRunner` needs of XState's `enqueue`, and what it gives `runSteps`. */
interface BatchEnqueue {
  assign(patch: Partial<AgentContext> | (() => Partial<AgentContext>)): void;
  emit(event: RunEvent): void;
  sendTo(childId: string, event: AnyEventObject): void;
  spawnChild(src: 'toolRunner', options: { id: 'toolRunner' }): unknown;
}

/**
 * The run's tool runner is spawned with its first batch, not at the run's
 * start: a run that calls no tool (most group-chat turns) never makes one.
 * Before sending it the batch, the step spawns it if the run has none yet
 * (a restored run has one from its snapshot, see `rebuildChildren`).
 */
function withToolRunner(enqueue: BatchEnqueue, self: AnyActorRef): BatchEnqueue {
  if (hasToolRunner(self)) return enqueue;
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

/** An ending state: its entry reports the run's end, then the run is over, or (a resident agent) its turn is. */
function ending<const Entry extends readonly unknown[]>(...entry: Entry) {
  return {
    entry,
    always: [{ guard: 'livesForChat' as const, target: 'idle', actions: 'endTurn' as const }, { target: 'ended' }],
  };
}

/**
 * The agent's tool loop:
 * idle → thinking (model call) → screening (which calls need approval)
 * → awaitingApproval (when some do) → acting (tool batch) → thinking … → done,
 * with the limits', the rules' and the middleware's endings decided on the
 * transition that ends a step (see `agentTransitions.ts`), and `aborted` and
 * `failed` reachable from any working state. A tool step is two events: the
 * model's reply (`model.reply`, from the `model` child) and the batch's
 * results (`tool.settled`, from the `toolRunner` child).
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
    /** The plan of the event (`stepPlan`) leads to `to`. */
    leadsTo: ({ context, event }, params: { to: AgentTarget }) => stepPlan(context, event).target === params.to,
    isPendingApproval: ({ context, event }) =>
      event.type === 'approval.decide' && pendingRequests(context.approvals).some((request) => request.id === event.id),
    /** The run is a resident agent's turn (see `agentTurn.ts`): its end goes back to `idle`. */
    livesForChat: ({ context }) => context.runtime.livesForChat === true,
    turnUnusable: ({ event }) => event.type === 'turn' && event.unusable !== undefined,
    hasRequestsToAsk: ({ context, event }) => requestsToAsk((event as unknown as { output: ApprovalRequest[] }).output, context).length > 0,
  },
  actions: {
    /** The step the event takes (see `agentTransitions.ts`), in one action with one `assign`. */
    takeStep: enqueueActions(({ context, event, enqueue, self }) => writePlan(takePlan(context, event), withToolRunner(enqueue, self))),
    /**
     * A resident agent's next turn: the per-run context again, `run.started`,
     * and the rules' machine from its start. The shared state is the chat's
     * the turn names (a resident nested chat's next run has a new one), else
     * the agent's own kept.
     */
    beginTurn: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'turn') return;
      const { input } = event;
      const next = initialAgentContext(input, input.state !== undefined && 'slot' in input.state ? input.state.slot : context.sharedState);
      enqueue.assign(event.unusable === undefined ? next : { ...next, error: event.unusable });
      enqueue.emit({ type: 'run.started', runId: next.runId, agent: next.runtime.agentName, input: next.messages });
      if (next.runtime.toolRules !== undefined && next.runtime.mirrorToolRules === true) {
        enqueue.stopChild('toolRules');
        enqueue.spawnChild('toolRules', { id: 'toolRules' });
      }
    }),
    /**
     * The end of a resident agent's turn: its result to the parent, as the
     * run's output would be. The tool runner goes with the turn (the next
     * turn's first batch spawns one, as a run's does); a turn that ran no
     * batch has none to stop. (A batch's runner is spawned in an event
     * before the one that ends the turn: a batch with calls to run waits in
     * `acting`.)
     */
    endTurn: enqueueActions(({ context, enqueue, self }) => {
      enqueue(sendParent({ type: 'agent.turn.done', output: toRunResult(context) } satisfies AgentTurnDoneEvent));
      if (hasToolRunner(self)) enqueue.stopChild('toolRunner');
    }),
    answerAbortedBatch: enqueueActions(({ context, event, enqueue }) => runSteps(context, event, enqueue, agentSteps.answerAbortedBatch)),
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
        step: context.step,
        callId: changed.callId,
        added: changed.change.added,
        removed: changed.change.removed,
        tools: context.runtime.liveTools.names(),
      };
    }),
    finish: enqueueActions(({ context, enqueue, self }, params: { reason: AgentContext['stopReason']; error?: ErrorInfo }) => {
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
      // A standalone run's end stops the shared-state actor it made on first use, as XState stops the children it spawned.
      const ownState = context.runtime.livesForChat === true ? undefined : context.sharedState.ownActor(self);
      if (ownState !== undefined) enqueue.stopChild(ownState);
    }),
  },
}).createMachine({
  id: 'agent',
  // The run's own shared state is made when first needed (`SharedStateSlot`).
  context: ({ input, self }) =>
    initialAgentContext(
      input,
      input.state !== undefined && 'slot' in input.state
        ? input.state.slot
        : SharedStateSlot.lazy(self, input.state?.initial ?? {}, SHARED_STATE_SYSTEM_ID),
    ),
  // The model caller is the run's resident `model` child, spawned with it; the tool runner comes with the
  // first batch (`withToolRunner`).
  initial: 'idle',
  entry: [
    emit(({ context }) => ({
      type: 'run.started' as const,
      runId: context.runId,
      agent: context.runtime.agentName,
      input: context.messages,
    })),
    enqueueActions(({ context, enqueue }) => {
      enqueue.spawnChild('modelCaller', { id: 'model' });
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
        start: stepTransitions('thinking'),
        // A resident agent's next turn (`agentTurn.ts`); one whose tools are unusable fails at once.
        turn: [
          { guard: 'turnUnusable', target: 'failed', actions: 'beginTurn' },
          { target: 'thinking', actions: ['beginTurn', 'takeStep'] },
        ],
        // A run restored from a store checkpoint (`restoreRun`): on from the point it was taken at.
        resume: stepTransitions('acting', 'screening', ...AFTER_STEP),
      },
    },
    thinking: {
      on: {
        'model.delta': { actions: 'relayDelta' },
        'model.malformed': { actions: 'relayMalformedReply' },
        'model.reply': stepTransitions('acting', 'done', 'screening', 'limitReached', ...AFTER_STEP),
        'model.failed': {
          target: 'failed',
          actions: assign({ error: ({ event }) => toErrorInfo(event.error) }),
        },
      },
    },
    /** Calls that may need a human decision are screened first; most batches go straight to acting. */
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
            guard: 'hasRequestsToAsk',
            target: 'awaitingApproval',
            actions: {
              type: 'requestApprovals',
              params: ({ context, event }) => requestsToAsk(event.output, context),
            },
          },
          ...stepTransitions('acting', ...AFTER_STEP),
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toErrorInfo(event.error) }) },
      },
    },
    awaitingApproval: {
      on: {
        'approval.decide': stepTransitions('acting', ...AFTER_STEP, 'stay').map((transition) => ({
          ...transition,
          guard: transition.guard === undefined ? 'isPendingApproval' : and(['isPendingApproval', transition.guard]),
        })),
      },
    },
    acting: {
      on: {
        'tool.settled': stepTransitions(...AFTER_STEP, 'stay'),
        'tools.changed': { actions: 'reportToolsChanged' },
        'tool.progress': { actions: 'relayToolProgress' },
      },
    },
    // The endings: a standalone run goes on to `ended` (final), a resident agent's turn back to `idle`.
    done: ending({ type: 'finish', params: { reason: 'completed' } }),
    terminalToolCalled: ending({ type: 'finish', params: { reason: 'terminal-tool' } }),
    maxStepsReached: ending({ type: 'finish', params: { reason: 'max-steps' } }),
    tokenBudgetSpent: ending({ type: 'finish', params: { reason: 'token-budget' } }),
    limitReached: ending({ type: 'finish', params: ({ context }: { context: AgentContext }) => ({ reason: context.finalCall ?? 'max-tool-calls' }) }),
    endedByMiddleware: ending({ type: 'finish', params: { reason: 'ended-by-middleware' } }),
    aborted: ending('answerAbortedBatch', { type: 'finish', params: { reason: 'aborted' } }),
    failed: ending({ type: 'finish', params: ({ context }: { context: AgentContext }) => ({ reason: 'error' as const, error: context.error }) }),
    ended: { type: 'final' },
  },
  output: ({ context }) => toRunResult(context),
});
