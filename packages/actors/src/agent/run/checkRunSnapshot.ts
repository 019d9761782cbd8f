import {
  type AnyTool,
  type AssistantMessage,
  type CompiledToolRules,
  RunSnapshotError,
  type ToolCall,
  type ToolRuleState,
  initialToolRuleState,
} from '@agentchart/core';
import { exportedName } from '@agentchart/core/internal';
import { isDeepStrictEqual } from 'node:util';
import type { ToolOutcome } from '../machine/toolOutcome.js';
import { rejectedOutcome } from '../machine/approvals.js';
import type { CheckpointState, WaitingContext } from './runSnapshotSchema.js';
import { applyBatchOutputs } from '../toolRules/toolRulesProgress.js';
import { argumentsLookValid, gateToolCalls, lastAdmittedIndex, refusalOutcome } from '../toolRules/toolRulesGate.js';
import { settleRuleApproval } from '../toolRules/toolRulesApprovals.js';

/** What a waiting run is checked against: the resuming agent's code. */
export interface SnapshotCheckEnv {
  /** The tools the run can resolve (its live tools, by name). */
  liveTools: ReadonlyMap<string, AnyTool>;
  toolRules: CompiledToolRules | undefined;
  maxSteps: number;
}

/**
 * Checks what the shape of a waiting run cannot say, re-deriving what can be
 * re-derived from its transcript:
 * - the run's own replies are the last `step` assistant messages; the batch
 *   is the last of them, word for word, and not answered yet;
 * - every earlier call of the run has its record and its tool result;
 * - the rule state is the one replaying those calls through the rules gives
 *   (counts, parents, branches), and so are the batch's refusals;
 * - the approval requests are calls of the batch, not refused, each call of
 *   an `approval: 'always'` tool (and the call a rule holds) is among them,
 *   decisions are only for requests, and one at least is still open.
 * A store checkpoint in another state is checked the same way for what it
 * has: before a model call (`stepDone`) every call of every reply has its
 * record and result and the rule state is the replay of all of them, with no
 * batch, draft or approvals; a batch before screening (`batchReady`) has no
 * approval requests yet; a batch about to run (`acting`) has every request
 * decided.
 * The first problem throws `RunSnapshotError` (`RUN_SNAPSHOT_INVALID`) with
 * its path in the snapshot.
 *
 * @example
 * checkRunSnapshot(context, { liveTools, toolRules, maxSteps: 10 }); // throws on a tampered batch
 */
export function checkRunSnapshot(context: WaitingContext, env: SnapshotCheckEnv, state: CheckpointState = 'awaitingApproval'): void {
  const path = (...parts: (string | number)[]) => ['machine', 'context', ...parts].join('.');
  const { messages, batch } = context;

  if (context.step > env.maxSteps) fail(path('step'), `the run is at step ${context.step} but the agent allows ${env.maxSteps}`);
  const replies = ownReplies(messages, context.step);
  if (replies === undefined) fail(path('messages'), `the transcript has fewer than ${context.step} assistant messages (one per model call)`);
  if (state === 'stepDone') {
    checkBeforeModelCall(context, replies, env, path);
    return;
  }
  const last = messages[messages.length - 1];
  if (context.step < 1 || last?.role !== 'assistant' || (last.toolCalls ?? []).length === 0) {
    fail(path('messages', messages.length - 1), 'a run with a batch (or waiting for approval) ends with the model reply whose calls wait');
  }
  const replyCalls = last.toolCalls ?? [];
  const { text, reasoning, toolCalls } = context.draft;
  if (!isDeepStrictEqual({ text, reasoning, toolCalls }, { text: last.content, reasoning: last.reasoning ?? '', toolCalls: replyCalls })) {
    fail(path('draft'), 'the reply being acted on is not the last message of the transcript');
  }
  if (batch.outcomes.length !== batch.calls.length)
    fail(path('batch', 'outcomes'), `${batch.outcomes.length} outcomes for ${batch.calls.length} calls`);
  if (batch.pending !== batch.outcomes.filter((outcome) => outcome === null).length)
    fail(path('batch', 'pending'), 'does not count the unanswered calls');
  const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const replied = batch.calls.findIndex((call) => answered.has(call.id));
  if (replied >= 0) fail(path('batch', 'calls', replied), `call "${batch.calls[replied]!.id}" already has a tool result in the transcript`);

  checkRecords(context, replies.slice(0, -1), path);
  const rules = checkRules(context, replies.slice(0, -1), replyCalls, env, path);
  checkApprovals(context, rules, env, path, state);
  checkToolCallCount(context, path);
}

/** A run between steps: every call answered and recorded, the rules where the calls lead, nothing pending. */
function checkBeforeModelCall(
  context: WaitingContext,
  replies: readonly AssistantMessage[],
  env: SnapshotCheckEnv,
  path: (...parts: (string | number)[]) => string,
): void {
  const { batch, approvals, draft } = context;
  if (batch.calls.length > 0 || batch.outcomes.length > 0 || batch.pending !== 0 || batch.admitted !== undefined) {
    fail(path('batch'), 'a run between model calls has no batch');
  }
  if (approvals.requests.length > 0 || Object.keys(approvals.decisions).length > 0)
    fail(path('approvals'), 'a run between model calls has no approvals');
  if (draft.text !== '' || draft.reasoning !== '' || draft.toolCalls.length > 0) fail(path('draft'), 'a run between model calls has no reply draft');
  checkRecords(context, replies, path);
  const compiled = env.toolRules;
  if (compiled === undefined) {
    if (context.rules !== undefined) fail(path('rules'), 'the agent has no tool rules, but the snapshot has a rule state');
  } else {
    if (context.rules === undefined) fail(path('rules'), 'the agent has tool rules, but the snapshot has no rule state');
    const state = replayRules(compiled, context, replies, env, path);
    if (!isDeepStrictEqual(context.rules, state)) {
      fail(path('rules'), `is not the rule state the run's calls lead to (${JSON.stringify(state)}); it was edited`);
    }
  }
  checkToolCallCount(context, path);
}

function checkToolCallCount(context: WaitingContext, path: (...parts: (string | number)[]) => string): void {
  if (context.toolCallCount > context.toolCalls.filter((record) => record.refusedBy === undefined).length) {
    fail(path('toolCallCount'), 'counts more executed calls than the run has records of');
  }
}

/** The run's own replies: the last `step` assistant messages (each model call appends one). */
function ownReplies(messages: WaitingContext['messages'], step: number): AssistantMessage[] | undefined {
  const assistants = messages.filter((message): message is AssistantMessage => message.role === 'assistant');
  return assistants.length < step ? undefined : assistants.slice(assistants.length - step);
}

/** Every call of the earlier replies has exactly one record, in reply order, matching its tool result. */
function checkRecords(context: WaitingContext, earlier: readonly AssistantMessage[], path: (...parts: (string | number)[]) => string): void {
  const results = new Map(context.messages.flatMap((message) => (message.role === 'tool' ? [[message.toolCallId, message.content] as const] : [])));
  const made = earlier.flatMap((reply) => reply.toolCalls ?? []);
  const records = context.toolCalls;
  if (records.length !== made.length) {
    fail(path('toolCalls'), `${records.length} call records for the ${made.length} calls the model made in the run's earlier replies`);
  }
  const byId = new Map(made.map((call) => [call.id, call]));
  records.forEach((record, index) => {
    const call = byId.get(record.call.id);
    if (call === undefined || call.name !== record.call.name) {
      fail(
        path('toolCalls', index, 'call'),
        `call "${exportedName(record.call.id)}" (${exportedName(record.call.name)}) is not a call the model made in this run`,
      );
    }
    if (results.get(record.call.id) !== record.content)
      fail(path('toolCalls', index, 'content'), `is not the tool result of call "${record.call.id}" in the transcript`);
    byId.delete(record.call.id);
  });
}

/**
 * Replays the run's calls through the rules and compares: the rule state of
 * the snapshot, the batch as gated (prefilled arguments, admitted calls,
 * refusals). Returns the derived state (undefined without rules).
 */
function checkRules(
  context: WaitingContext,
  earlier: readonly AssistantMessage[],
  replyCalls: readonly ToolCall[],
  env: SnapshotCheckEnv,
  path: (...parts: (string | number)[]) => string,
): ToolRuleState | undefined {
  const { batch } = context;
  const compiled = env.toolRules;
  if (compiled === undefined) {
    if (context.rules !== undefined) fail(path('rules'), 'the agent has no tool rules, but the snapshot has a rule state');
    const refused = batch.outcomes.findIndex((outcome) => outcome !== null);
    if (refused >= 0) fail(path('batch', 'outcomes', refused), 'a call is answered before it ran, and there are no rules to refuse it');
    if (!isDeepStrictEqual(batch.calls, replyCalls)) fail(path('batch', 'calls'), 'are not the calls of the last model reply');
    return undefined;
  }
  if (context.rules === undefined) fail(path('rules'), 'the agent has tool rules, but the snapshot has no rule state');
  const state = replayRules(compiled, context, earlier, env, path);
  const gated = gateToolCalls(compiled, env.liveTools, state, replyCalls);
  if (!isDeepStrictEqual(batch.calls, gated.calls))
    fail(path('batch', 'calls'), 'are not the calls of the last model reply (as the rules prefill them)');
  if (!isDeepStrictEqual(batch.admitted, gated.admitted)) fail(path('batch', 'admitted'), 'is not what the rules admit of the batch');
  gated.refusals.forEach((refusal, index) => {
    const expected = refusalOutcome(refusal) ?? null;
    if (!isDeepStrictEqual(batch.outcomes[index], expected)) {
      fail(path('batch', 'outcomes', index), expected === null ? 'answers a call the rules admit' : 'is not the refusal the rules give this call');
    }
  });
  if (!isDeepStrictEqual(context.rules, gated.state)) {
    fail(path('rules'), `is not the rule state the run's calls lead to (${JSON.stringify(gated.state)}); it was edited`);
  }
  return gated.state;
}

/** The rule state replaying the calls of `earlier` (with their recorded outcomes) through the rules gives. */
function replayRules(
  compiled: CompiledToolRules,
  context: WaitingContext,
  earlier: readonly AssistantMessage[],
  env: SnapshotCheckEnv,
  path: (...parts: (string | number)[]) => string,
): ToolRuleState {
  const records = new Map(context.toolCalls.map((record) => [record.call.id, record]));
  let state = initialToolRuleState();
  for (const reply of earlier) {
    const calls = reply.toolCalls ?? [];
    if (calls.length === 0) continue;
    const gated = gateToolCalls(compiled, env.liveTools, state, calls);
    const outcomes: ToolOutcome[] = gated.calls.map((call, index) => {
      const record = records.get(call.id)!;
      if ((gated.refusals[index] !== undefined) !== (record.refusedBy !== undefined)) {
        fail(
          path('toolCalls'),
          `call "${call.id}" was ${record.refusedBy === undefined ? 'run' : 'refused'}, but the rules replayed over the transcript ${record.refusedBy === undefined ? 'refuse' : 'admit'} it`,
        );
      }
      return { content: record.content, isError: record.isError, ...(record.value !== undefined ? { value: record.value } : {}) };
    });
    state = gated.state;
    const held = state.awaitingApproval === null ? undefined : gated.calls[lastAdmittedIndex(gated, state.awaitingApproval)];
    if (held !== undefined) {
      const rejected =
        outcomes[gated.calls.indexOf(held)]?.content.startsWith(rejectedOutcome(held.name, { approved: false }).content.replace(/\.$/, '')) ?? false;
      state = settleRuleApproval(compiled, state, gated, { requests: [], decisions: { [held.id]: { approved: !rejected } } }).state;
    }
    state = applyBatchOutputs(compiled, state, { calls: gated.calls, outcomes, admitted: gated.admitted }).state;
  }
  return state;
}

function checkApprovals(
  context: WaitingContext,
  rules: ToolRuleState | undefined,
  env: SnapshotCheckEnv,
  path: (...parts: (string | number)[]) => string,
  state: CheckpointState,
): void {
  const { batch, approvals } = context;
  if (state === 'batchReady' && (approvals.requests.length > 0 || Object.keys(approvals.decisions).length > 0)) {
    fail(path('approvals'), 'a batch before screening has no approval requests or decisions yet');
  }
  const requested = new Set<string>();
  approvals.requests.forEach((request, index) => {
    const at = batch.calls.findIndex((call) => call.id === request.id);
    const call = batch.calls[at];
    if (call === undefined) fail(path('approvals', 'requests', index), `"${request.id}" is not a call of the batch`);
    if (requested.has(request.id)) fail(path('approvals', 'requests', index), `"${request.id}" is requested twice`);
    requested.add(request.id);
    if (batch.outcomes[at] !== null)
      fail(path('approvals', 'requests', index), `call "${request.id}" was refused by the rules; it cannot be approved`);
    if (request.toolName !== call.name || !isDeepStrictEqual(request.arguments, call.arguments) || request.step !== context.step) {
      fail(path('approvals', 'requests', index), `does not match call "${call.id}" of the batch`);
    }
    if (!env.liveTools.has(call.name)) fail(path('approvals', 'requests', index), `tool "${exportedName(call.name)}" is not offered to this run`);
  });
  // A batch before screening is screened again on resume: it asks what it must.
  if (state === 'batchReady') return;
  batch.calls.forEach((call, index) => {
    if (batch.outcomes[index] !== null || requested.has(call.id)) return;
    const tool = env.liveTools.get(call.name);
    if (tool?.approval === 'always' && argumentsLookValid(tool, call)) {
      fail(
        path('batch', 'calls', index),
        `call "${exportedName(call.id)}" of "${exportedName(call.name)}" needs approval but is not among the requests`,
      );
    }
  });
  const held = rules?.awaitingApproval ?? null;
  if (held !== null) {
    const call = batch.calls[lastAdmittedIndex(batch, held)];
    if (call !== undefined && !requested.has(call.id))
      fail(path('approvals', 'requests'), `miss call "${call.id}", which a requiresApproval rule holds`);
  }
  for (const id of Object.keys(approvals.decisions)) {
    if (!requested.has(id)) fail(path('approvals', 'decisions', id), `decides "${id}", which is not a pending request`);
  }
  const open = approvals.requests.filter((request) => approvals.decisions[request.id] === undefined);
  if (state === 'awaitingApproval' && open.length === 0) {
    fail(path('approvals', 'decisions'), 'decide every request: a waiting run has at least one open request');
  }
  if (state === 'acting' && open.length > 0)
    fail(path('approvals', 'requests'), `leave "${open[0]!.id}" undecided: a batch about to run has every request decided`);
}

function fail(path: string, problem: string): never {
  throw new RunSnapshotError(
    'RUN_SNAPSHOT_INVALID',
    `The persisted run is not valid at ${path}: ${problem}. Resume only what run.persist() wrote, unchanged.`,
    { path },
  );
}
