import type { z } from 'zod';
import type { AnyTool, ChatModel, CompiledToolRules, FunctionMiddleware, StateRecord } from '@agentchart/core';
import type { ErrorInfo, Message, StopReason, ToolCall, ToolModeSetting, ToolRuleState, Usage } from '@agentchart/core';
import type { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';
import type { LiveToolSet } from '../tools/liveTools.js';
import type { SnapshotKey } from '../run/snapshotSignature.js';
import type { RunBudgetSettings } from './runTokenBudget.js';
import type { ApprovalState } from './approvals.js';
import type { ToolOutcome } from './toolOutcome.js';

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

// The context holds the runtime, and the runtime the checkpoint hooks that read the context:
// the three types refer to each other, so they are declared together here.

/**
 * The parts of a run that are code, not data: the model, the tools, the
 * middleware. Built for every run from its agent (and run options); never
 * persisted: a resumed run gets them again from the agent that resumes it.
 */
export interface AgentRuntime extends RunBudgetSettings {
  readonly agentName: string;
  readonly model: ChatModel;
  /** The agent's own tools (never mutated). */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** This run's live tool list: a copy of `tools` that tools change with `ctx.addTools` / `ctx.removeTools`. */
  readonly liveTools: LiveToolSet;
  /** Agent-level middleware, then run-level middleware. */
  readonly middleware: readonly FunctionMiddleware[];
  readonly instructions: string | undefined;
  readonly maxSteps: number;
  /** Tool calls a run may execute (`Infinity`: no limit). */
  readonly maxToolCalls: number;
  readonly maxConsecutiveErrors: number;
  readonly detailedErrors: boolean;
  /**
   * The compiled tool rules. The agent decides with their program (the
   * engine functions); see `mirrorToolRules` for their machine.
   */
  readonly toolRules: CompiledToolRules | undefined;
  /**
   * Whether the run keeps the rules' generated machine as its `toolRules`
   * child, moved by every event the agent's gate applies: every new run with
   * rules, watched or not (a run resumed from a snapshot has it when the
   * snapshot does). The agent decides with the program; the child shows it.
   */
  readonly mirrorToolRules?: boolean;
  /** Whether the run is a resident agent's turn in a group chat: its end goes back to `idle` for the next turn (see `agentTurn.ts`). */
  readonly livesForChat?: boolean;
  /** Checked on every write to the run's shared state. */
  readonly stateSchema?: z.ZodType<StateRecord> | undefined;
  /** Signs what `run.persist()` writes and is required by `agent.resume` (see `snapshotSignature.ts`). */
  readonly snapshotKey?: SnapshotKey | undefined;
  /**
   * Set only for a run kept in a store (docs/durability.md): the step calls it
   * at model reply, batch start, batch end and wait (see `RunCheckpoints`).
   */
  readonly checkpoints?: RunCheckpoints | undefined;
}

/**
 * The agent step's checkpoint hook: set on `AgentRuntime.checkpoints` only
 * for a run kept in a store (`agent.run(input, { store, runId })`), never
 * otherwise, so a run without a store pays nothing. Each method is called
 * synchronously from inside the step with the context as the step left it;
 * it must copy what it keeps (the step goes on changing its private copy)
 * and never throw.
 */
export interface RunCheckpoints {
  /** A model reply was taken: appended, and its calls formed into a batch (before screening), or none. */
  modelReply(context: AgentContext): void;
  /** A batch is about to run: screened, every approval request decided. */
  batchStart(context: AgentContext): void;
  /** A batch's results were appended to the transcript: the next model call comes next (or an ending). */
  batchEnd(context: AgentContext): void;
  /** The run waits for approval: `context.approvals` holds the requests. */
  waiting(context: AgentContext): void;
  /** Resolves once every checkpoint taken so far is stored: a wait's `approval.requested` is announced then. */
  written?(): Promise<void>;
}

/**
 * The draft of a step whose reply has not come yet. Every step gets this one
 * frozen object (nothing writes a draft in place: `takeReply` makes a new one),
 * so a step allocates none.
 */
export const EMPTY_DRAFT: ReplyDraft = { text: '', reasoning: '', toolCalls: [] };
Object.freeze(EMPTY_DRAFT.toolCalls);
Object.freeze(EMPTY_DRAFT);

/** The batch of a step that has none (yet, or any more): one frozen object, as `EMPTY_DRAFT` (every step writes a new batch rather than changing one). */
export const NO_BATCH: AgentContext['batch'] = { calls: [], outcomes: [], pending: 0 };
Object.freeze(NO_BATCH.calls);
Object.freeze(NO_BATCH.outcomes);
Object.freeze(NO_BATCH);
