/**
 * What the agent machine does on each transition, as plain functions of the
 * context and the event. Each writes through a small output (`assign`,
 * `emit`, `sendTo`); `runSteps` runs several in order inside one XState
 * action, each seeing the context the ones before it produced. A step costs
 * a function call instead of an XState action of its own: a transition
 * has one action and one `assign` (see `agentTransitions.ts`).
 */
import type { RunEvent, ToolCall, ToolMessage, ToolProgress } from '@agentchart/core';
import { addUsage, applyEnd } from '@agentchart/core/internal';
import type { AnyEventObject } from 'xstate';
import { type AgentContext, type ReplyDraft, type ToolCallRecord, EMPTY_DRAFT, NO_BATCH } from './agentContext.js';
import type { ToolOutcome } from './toolOutcome.js';
import type { AgentMachineEvent } from './agentMachineEvent.js';
import { type ApprovalRequest, NO_APPROVALS } from './approvals.js';
import { assembleAssistantMessage } from './assembleAssistantMessage.js';
import { makeCallIdsUnique } from './uniqueCallIds.js';
import { buildModelRequest, offeredToolsByName, offeredToolsNow } from './buildModelRequest.js';
import { answeredBeforeExecution, consecutiveErrorsAfterBatch, limitReachedOutcome } from './loopLimits.js';
import { oneCallAtATimeRefusals } from './oneCallAtATime.js';
import { afterToolIteration } from './toolChoice.js';
import { inputEvent, isInputProgress } from '../../rootRun/inputRequests.js';
import { settleRuleApproval } from '../toolRules/toolRulesApprovals.js';
import { gateToolCalls, refusalOutcome } from '../toolRules/toolRulesGate.js';
import { applyBatchOutputs, endReminder } from '../toolRules/toolRulesProgress.js';

/** Where a step writes: context changes, run events and commands to children. */
export interface StepOutput {
  assign(patch: Partial<AgentContext>): void;
  emit(event: RunEvent): void;
  sendTo(childId: 'model' | 'toolRunner' | 'toolRules', event: AnyEventObject): void;
}

/** One piece of what the machine does on a transition. */
export type AgentStep = (context: AgentContext, event: AgentMachineEvent, enqueue: StepOutput) => void;

/** The part of XState's `enqueue` that steps write through. */
interface Enqueue extends Omit<StepOutput, 'sendTo'> {
  sendTo(childId: string, event: AnyEventObject): void;
}

/**
 * Runs steps in order inside one `enqueueActions`: each sees the context as the
 * steps before it left it, and their context changes become one `assign`.
 */
export function runSteps(context: AgentContext, event: AgentMachineEvent, enqueue: Enqueue, ...steps: AgentStep[]): void {
  let patch: Partial<AgentContext> | undefined;
  // What the next step sees: the context itself until a step assigns, then one private copy kept up to date.
  let current = context;
  const output: StepOutput = {
    assign(part) {
      if (patch === undefined) {
        patch = {};
        current = { ...context };
      }
      // A plain loop: on this hot path it measured faster than `Object.assign` and `{ ...a, ...b }` copies.
      for (const key in part) {
        const value = part[key as keyof AgentContext];
        (patch as Record<string, unknown>)[key] = value;
        (current as unknown as Record<string, unknown>)[key] = value;
      }
    },
    emit: (runEvent) => enqueue.emit(runEvent),
    sendTo: (childId, command) => enqueue.sendTo(childId, command),
  };
  for (const step of steps) step(current, event, output);
  if (patch !== undefined) enqueue.assign(patch);
}

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

/** Moves the run's `toolRules` mirror (kept for every new run with rules) by the events the gate applied. */
function mirrorRuleEvents(context: AgentContext, enqueue: StepOutput, events: readonly AnyEventObject[]): void {
  if (context.runtime.mirrorToolRules !== true) return;
  for (const event of events) enqueue.sendTo('toolRules', event);
}

/** What the model sees for a call the run was aborted before it returned; its `error` says it was cut short (code `ABORTED`), not that it failed. */
const ABORTED_CALL_CONTENT = 'The run was aborted before this call returned a result.';
const ABORTED_CALL: ToolOutcome = {
  content: ABORTED_CALL_CONTENT,
  isError: true,
  error: { name: 'AbortedError', code: 'ABORTED', message: ABORTED_CALL_CONTENT },
};

/**
 * The `tool.progress` run event of a running call of the step `context` is at
 * (see `ToolContext.reportProgress`).
 *
 * @example
 * enqueue.emit(toolProgressEvent(context, call.id, call.name, { message: 'half way' }));
 */
export function toolProgressEvent(
  context: Pick<AgentContext, 'runId' | 'runtime' | 'step'>,
  callId: string,
  toolName: string,
  progress: ToolProgress,
): RunEvent {
  const at = { runId: context.runId, agent: context.runtime.agentName, step: context.step, callId, toolName };
  if (isInputProgress(progress)) return inputEvent(at, progress.input);
  return { type: 'tool.progress', ...at, ...progress };
}

/** The machine's steps, by the name of the action that runs each alone. */
export const agentSteps = {
  startStep: (context, _event, enqueue) => {
    const step = context.step + 1;
    enqueue.assign({ step, draft: EMPTY_DRAFT });
    const request = buildModelRequest(context);
    const { model } = context.runtime;
    const announce: RunEvent = {
      type: 'model.request',
      runId: context.runId,
      agent: context.runtime.agentName,
      step,
      tools: request.tools.map((tool) => tool.name),
      toolChoice: request.toolChoice,
      model: model.modelName,
      provider: model.provider,
    };
    enqueue.emit(announce);
    enqueue.sendTo('model', { type: 'model.call', model, request });
  },

  takeReply: (context, event, enqueue) => {
    if (event.type !== 'model.reply') return;
    const { reply } = event;
    const { usage, finishReason } = reply;
    // The reply's draft fields (`ReplyDraft`), in their order, written out: a rest copy costs more on every step.
    const draft: ReplyDraft = { text: reply.text, reasoning: reply.reasoning, toolCalls: makeCallIdsUnique(reply.toolCalls, context.messages) };
    if (reply.malformed !== undefined) draft.malformed = reply.malformed;
    enqueue.assign({ draft });
    const { runId, step } = context;
    const agent = context.runtime.agentName;
    // A stream that ended without saying why: tool calls if it made some, else a plain stop.
    const reason = finishReason ?? (draft.toolCalls.length > 0 ? 'tool-calls' : 'stop');
    if (usage === undefined) {
      enqueue.emit({ type: 'model.response', runId, agent, step, finishReason: reason });
      return;
    }
    enqueue.assign({ usage: addUsage(context.usage, usage) });
    enqueue.emit({ type: 'usage', runId, agent, step, usage });
    enqueue.emit({ type: 'model.response', runId, agent, step, finishReason: reason, usage });
  },

  runBatch: (context, _event, enqueue) => {
    const { batch } = context;
    if (batch.pending === 0) return;
    enqueue.sendTo('toolRunner', {
      type: 'tools.run',
      tools: offeredToolsByName(context),
      calls: batch.calls,
      answered: batch.outcomes,
      step: context.step,
      liveTools: context.runtime.liveTools,
      middleware: context.runtime.middleware,
      detailedErrors: context.runtime.detailedErrors,
      agentName: context.runtime.agentName,
      runId: context.runId,
      sharedState: context.sharedState,
      stateSchema: context.runtime.stateSchema,
    });
  },

  appendReply: (context, _event, enqueue) => {
    const message = assembleAssistantMessage(context.draft, context.runtime.agentName);
    // One copy at its final length (see `appendToolResults`).
    enqueue.assign({ messages: context.messages.concat([message]) });
    enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
  },

  startBatch: (context, _event, enqueue) => {
    const { runtime } = context;
    if (runtime.toolRules === undefined || context.rules === undefined) {
      const calls = context.draft.toolCalls;
      enqueue.assign({
        batch: { calls, outcomes: calls.map(() => undefined), pending: calls.length },
        approvals: NO_APPROVALS,
      });
      const { runId, step } = context;
      const agent = runtime.agentName;
      for (const call of calls) enqueue.emit({ type: 'tool.call', runId, agent, step, call });
      return;
    }
    const base = { runId: context.runId, agent: runtime.agentName, step: context.step };
    const tools = offeredToolsByName(context);
    const gated = gateToolCalls(runtime.toolRules, tools, context.rules, context.draft.toolCalls);
    const outcomes = gated.refusals.map(refusalOutcome);
    const pending = outcomes.filter((outcome) => outcome === undefined).length;
    enqueue.assign({
      batch: { calls: gated.calls, outcomes, pending, admitted: gated.admitted },
      approvals: NO_APPROVALS,
      rules: gated.state,
    });
    mirrorRuleEvents(context, enqueue, gated.events);
    gated.calls.forEach((call, index) => {
      const refusal = gated.refusals[index];
      if (refusal === undefined) enqueue.emit({ type: 'tool.call', ...base, call });
      else {
        const { rule, reason, allowedTools, content } = refusal;
        enqueue.emit({ type: 'tool.refused', ...base, call, rule, reason, allowedTools, content });
      }
    });
  },

  /** Feeds the rules the human decision on a call a `requiresApproval` rule holds. */
  settleRuleApproval: (context, _event, enqueue) => {
    if (context.runtime.toolRules === undefined || context.rules === undefined) return;
    const settled = settleRuleApproval(context.runtime.toolRules, context.rules, context.batch, context.approvals);
    enqueue.assign({ rules: settled.state });
    mirrorRuleEvents(context, enqueue, settled.events);
  },

  /** After a batch: the output of the conditional tool it ran picks the next tool. */
  advanceRules: (context, _event, enqueue) => {
    const { toolRules } = context.runtime;
    const { batch } = context;
    if (toolRules === undefined || context.rules === undefined || batch.admitted === undefined) return;
    const progress = applyBatchOutputs(toolRules, context.rules, { ...batch, admitted: batch.admitted });
    enqueue.assign({ rules: progress.state, ...(progress.error ? { error: progress.error } : {}) });
    mirrorRuleEvents(context, enqueue, progress.events);
  },

  /** A final answer the rules do not accept yet: tell the model what is missing. */
  remindOfRules: (context, _event, enqueue) => {
    if (context.runtime.toolRules === undefined || context.rules === undefined) return;
    const message = endReminder(context.runtime.toolRules, context.rules);
    if (message === undefined) return;
    enqueue.assign({ messages: [...context.messages, message] });
    enqueue.emit({ type: 'message', runId: context.runId, agent: context.runtime.agentName, message });
  },

  /** A reply without calls that does not end the run: one the provider had to ask again for still counts as an error. */
  countMalformedReply: (context, _event, enqueue) => {
    if (context.draft.malformed !== undefined) enqueue.assign({ consecutiveErrorBatches: context.consecutiveErrorBatches + 1 });
  },

  endRules: (context, _event, enqueue) => {
    if (context.rules === undefined) return;
    enqueue.assign({ rules: applyEnd(context.rules) });
    mirrorRuleEvents(context, enqueue, [{ type: 'end' }]);
  },

  /**
   * The run's ending, written with the final answer's own assign: `finish`
   * (the `done` state's entry) then finds it there and makes no second
   * `assign`, which in XState copies the snapshot once more.
   */
  completeRun: (_context, _event, enqueue) => {
    enqueue.assign({ stopReason: 'completed', error: undefined });
  },

  recordDecision: (context, event, enqueue) => {
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
  },

  /** Answers the calls that will not run (rejected, over the tool-call budget) and counts the rest. */
  prepareBatch: (context, _event, enqueue) => {
    const { batch } = context;
    // Calls the tool rules refused are answered already; a oneCallAtATime call beside others is refused;
    // the rest are checked here.
    const refusals = oneCallAtATimeRefusals(offeredToolsNow(context), batch.calls);
    // No refusal, no decision, and the budget holds every open call (most batches): nothing is answered, the batch stays as it is.
    if (refusals.size === 0 && context.approvals.requests.length === 0 && batch.pending <= context.runtime.maxToolCalls - context.toolCallCount) {
      enqueue.assign({ toolCallCount: context.toolCallCount + batch.pending });
      return;
    }
    const open = batch.calls.filter((_, index) => batch.outcomes[index] === undefined && !refusals.has(index));
    const answeredOpen = answeredBeforeExecution(open, context.approvals, context.toolCallCount, context.runtime.maxToolCalls);
    let next = 0;
    const answered = batch.outcomes.map((outcome, index) => outcome ?? refusals.get(index) ?? answeredOpen[next++]);
    let executing = 0;
    let answeredNow = false;
    for (let index = 0; index < answered.length; index++) {
      if (answered[index] === undefined) executing += 1;
      else if (batch.outcomes[index] === undefined) answeredNow = true;
    }
    // Nothing answered here and the count unchanged (most batches): the batch stays the object it is.
    const unchanged = !answeredNow && executing === batch.pending;
    enqueue.assign({
      batch: unchanged ? batch : { ...batch, outcomes: answered, pending: executing },
      toolCallCount: context.toolCallCount + executing,
    });
    if (!answeredNow) return;
    answered.forEach((outcome, index) => {
      if (outcome !== undefined && batch.outcomes[index] === undefined)
        enqueue.emit(toolResultEvent(context, batch.calls[index] as ToolCall, outcome));
    });
  },

  recordOutcome: (context, event, enqueue) => {
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
  },

  appendToolResults: (context, _event, enqueue) => {
    const { batch } = context;
    // The batch's messages and records first, then one copy of each list at its final length (`concat`):
    // a copy that grows by `push` allocates its backing store twice, on every step.
    const messages: ToolMessage[] = [];
    const records: ToolCallRecord[] = [];
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
      messages: context.messages.concat(messages),
      toolCalls: context.toolCalls.concat(records),
      batch: NO_BATCH,
      approvals: NO_APPROVALS,
      toolMode: afterToolIteration(context.toolMode),
      consecutiveErrorBatches: consecutiveErrorsAfterBatch(context, failed),
    });
  },

  /**
   * An abort in the middle of a batch: the calls that came back keep their
   * results and the others are answered as aborted, so the transcript holds
   * an answer for every call and can be continued.
   */
  answerAbortedBatch: (context, event, enqueue) => {
    const { batch } = context;
    if (batch.calls.length === 0) return;
    const outcomes = batch.outcomes.map((outcome, index) => {
      if (outcome !== undefined) return outcome;
      enqueue.emit(toolResultEvent(context, batch.calls[index] as ToolCall, ABORTED_CALL));
      return ABORTED_CALL;
    });
    agentSteps.appendToolResults({ ...context, batch: { ...batch, outcomes } }, event, enqueue);
  },

  /** Checkpoint points of a run kept in a store (`runtime.checkpoints`, see `RunCheckpoints`); nothing otherwise. */
  checkpointReply: (context) => context.runtime.checkpoints?.modelReply(context),
  checkpointBatchStart: (context) => context.runtime.checkpoints?.batchStart(context),
  checkpointBatchEnd: (context) => context.runtime.checkpoints?.batchEnd(context),

  /** The last reply of a run that hit a limit: any tool calls in it are answered, not run. */
  answerFinalReply: (context, _event, enqueue) => {
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
  },
} satisfies Record<string, AgentStep>;
