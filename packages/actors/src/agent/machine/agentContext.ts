import type { ErrorInfo, Message, StopReason, ToolCall, ToolModeSetting, ToolRuleState, Usage } from '@agentchart/core';
import type { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';
import type { AgentRuntime } from './agentRuntime.js';
import type { ApprovalState } from './approvals.js';
import type { ToolOutcome } from './toolOutcome.js';

export type { ToolOutcome } from './toolOutcome.js';

/** One executed (or answered) tool call of a run. */
export interface ToolCallRecord {
  step: number;
  call: ToolCall;
  /** What the model saw. */
  content: string;
  isError: boolean;
  /** The tool's return value (unwrapped from `toolResult`), when it ran. */
  value?: unknown;
  /** Set when the tool rules refused the call (it did not run): the refusing rule family. */
  refusedBy?: string;
}

/** The model reply being assembled from stream events. */
export interface ReplyDraft {
  text: string;
  reasoning: string;
  toolCalls: ToolCall[];
  /**
   * How many replies of this step the provider could not use and asked again for (the model event
   * `malformed-reply`); absent when none. The step then counts as an error toward `maxConsecutiveErrors`.
   */
  malformed?: number;
}

/** The agent machine's context. Everything but `runtime` is plain data. */
export interface AgentContext {
  runtime: AgentRuntime;
  runId: string;
  /** The conversation, without the system prompt. */
  messages: Message[];
  /** Model calls made so far. */
  step: number;
  draft: ReplyDraft;
  /** The calls of the current batch and their outcomes, in call order. */
  batch: {
    calls: ToolCall[];
    outcomes: (ToolOutcome | undefined)[];
    pending: number;
    /** Per call: whether the tool rules admitted it (absent without rules). */
    admitted?: boolean[];
  };
  toolCalls: ToolCallRecord[];
  usage: Usage;
  /** The tool-rule machine's context (mirrors the `toolRules` child); absent without rules. */
  rules: ToolRuleState | undefined;
  stopReason: StopReason | undefined;
  error: ErrorInfo | undefined;
  /** The tool choice for the next model call (a required choice turns `auto` after tools ran). */
  toolMode: ToolModeSetting;
  /** Tool calls executed so far (answered-without-running calls excluded). */
  toolCallCount: number;
  /** Iterations in a row whose batch had a failing call. */
  consecutiveErrorBatches: number;
  /** Set when a limit was reached: the next model call is the last, with tool choice `none`. */
  finalCall: 'max-tool-calls' | 'max-consecutive-errors' | undefined;
  /** Approval requests and decisions of the current batch. */
  approvals: ApprovalState;
  /** The call whose middleware ended the run. */
  endedBy: { callId: string; toolName: string } | undefined;
  /** The run's shared state (or the group chat's, when the agent takes part in one); its actor is made when first needed. */
  sharedState: SharedStateSlot;
}

/** The draft of a step whose reply has not come yet: one frozen object for every step (a reply writes a new draft). */
const EMPTY_DRAFT: ReplyDraft = { text: '', reasoning: '', toolCalls: [] };
Object.freeze(EMPTY_DRAFT.toolCalls);
Object.freeze(EMPTY_DRAFT);

/**
 * The draft of a step whose reply has not come yet. Every step gets the same
 * frozen object (nothing writes a draft in place: `takeReply` makes a new one),
 * so a step allocates none.
 * @example
 * enqueue.assign({ step: context.step + 1, draft: emptyDraft() });
 */
export const emptyDraft = (): ReplyDraft => EMPTY_DRAFT;

/** The batch of a step that has none (yet, or any more): one frozen object, as `emptyDraft`. */
const NO_BATCH: AgentContext['batch'] = { calls: [], outcomes: [], pending: 0 };
Object.freeze(NO_BATCH.calls);
Object.freeze(NO_BATCH.outcomes);
Object.freeze(NO_BATCH);

/**
 * The batch of a step that has none: one shared frozen object (every step
 * writes a new batch rather than changing one).
 * @example
 * enqueue.assign({ batch: noBatch() });
 */
export const noBatch = (): AgentContext['batch'] => NO_BATCH;
