import { MessageSchema, ToolCallSchema } from '@agentchart/core';
import { ErrorInfoSchema, UsageSchema } from '@agentchart/core/internal';
import { ToolModeSettingSchema } from '@agentchart/core/internal';
import { z } from 'zod';

/**
 * The shape of a persisted run, every field of it: strict objects (an
 * unknown key is refused, not ignored), counts as non-negative integers.
 * What the shape cannot say (that the calls are the model's, that the rule
 * state follows from the transcript) `checkRunSnapshot` checks next.
 */

const step = z.number().int().min(1);

/**
 * The machine states a run is persisted in: waiting for approval (what
 * `run.persist()` writes), and the store's checkpoints: before the next
 * model call (`stepDone`), a reply's batch before screening (`batchReady`),
 * a screened and decided batch about to run (`acting`).
 */
export const CHECKPOINT_STATES = ['awaitingApproval', 'stepDone', 'batchReady', 'acting'] as const;
export type CheckpointState = (typeof CHECKPOINT_STATES)[number];
const count = z.number().int().nonnegative();

const ToolOutcomeSchema = z.strictObject({
  content: z.string(),
  isError: z.boolean(),
  value: z.unknown().optional(),
  error: ErrorInfoSchema.optional(),
  endsRun: z.literal(true).optional(),
  refusedBy: z.string().optional(),
});

const ToolCallRecordSchema = z.strictObject({
  step,
  call: ToolCallSchema,
  content: z.string(),
  isError: z.boolean(),
  value: z.unknown().optional(),
  refusedBy: z.string().optional(),
});

const ApprovalRequestSchema = z.strictObject({
  id: z.string().min(1),
  toolName: z.string().min(1),
  arguments: z.unknown(),
  step,
});

const ApprovalDecisionSchema = z.strictObject({ approved: z.boolean(), reason: z.string().optional() });

export const ToolRuleStateSchema = z.strictObject({
  last: z.string().nullable(),
  called: z.array(z.string()),
  counts: z.record(z.string(), count),
  branch: z
    .discriminatedUnion('status', [
      z.strictObject({ status: z.literal('pending'), tool: z.string() }),
      z.strictObject({ status: z.literal('chosen'), tool: z.string(), next: z.string() }),
      z.strictObject({ status: z.literal('open'), tool: z.string() }),
    ])
    .nullable(),
  awaitingApproval: z.string().nullable(),
  phase: z.enum(['running', 'done', 'failed']),
});

/**
 * The agent machine's context at a checkpoint: while it waits for approval,
 * or (in a store) before a model call or a batch (no stop reason, error or
 * ending yet: those keys are refused). What each state requires beyond the
 * shape (a batch, open requests) `checkRunSnapshot` checks.
 */
const WaitingContextSchema = z.strictObject({
  runId: z.string().min(1),
  messages: z.array(MessageSchema),
  step: count,
  draft: z.strictObject({ text: z.string(), reasoning: z.string(), toolCalls: z.array(ToolCallSchema), malformed: count.min(1).optional() }),
  batch: z.strictObject({
    calls: z.array(ToolCallSchema),
    outcomes: z.array(ToolOutcomeSchema.nullable()),
    pending: count,
    admitted: z.array(z.boolean()).optional(),
  }),
  toolCalls: z.array(ToolCallRecordSchema),
  usage: UsageSchema,
  rules: ToolRuleStateSchema.optional(),
  toolMode: ToolModeSettingSchema,
  toolCallCount: count,
  consecutiveErrorBatches: count,
  finalCall: z.enum(['max-tool-calls', 'max-consecutive-errors']).optional(),
  approvals: z.strictObject({
    requests: z.array(ApprovalRequestSchema),
    decisions: z.record(z.string(), ApprovalDecisionSchema),
  }),
  /** A reference to the run's shared-state actor (its own, or the group chat's). */
  sharedState: z.strictObject({ xstate$$type: z.literal(1), id: z.string().min(1) }),
});
export type WaitingContext = z.infer<typeof WaitingContextSchema>;

/** The shared state's values, the only part of the machine's children that is data of the run. */
const SharedStateChildSchema = z.looseObject({
  snapshot: z.looseObject({
    context: z.strictObject({ values: z.record(z.string(), z.unknown()), version: count }),
  }),
});

export const PersistedMachineSchema = z.looseObject({
  status: z.literal('active'),
  value: z.enum(CHECKPOINT_STATES, {
    error: 'a run is persisted only while it waits for approval ("awaitingApproval"), or at a store checkpoint ("stepDone", "batchReady", "acting")',
  }),
  context: WaitingContextSchema,
  /** Only the run's own shared state is read from here (a run in a group chat uses the chat's); the other children are rebuilt. */
  children: z.looseObject({ sharedState: SharedStateChildSchema.optional() }),
});
export type PersistedMachine = z.infer<typeof PersistedMachineSchema>;

/** A persisted run: the wrapper, then the machine. `signature` is there when the agent has a `snapshotKey`. */
export const PersistedRunSchema = z.strictObject({
  format: z.literal('agentchart.run'),
  version: z.number().int(),
  agent: z.string().min(1),
  runId: z.string().min(1),
  liveTools: z.array(z.string().min(1)),
  /** How the live tools came to differ from the agent's: each change, by a call id or `source:<name>` (absent when none). */
  toolChanges: z.array(z.strictObject({ by: z.string().min(1), added: z.array(z.string().min(1)), removed: z.array(z.string().min(1)) })).optional(),
  /** The run's own token budget (finite caps), kept across a resume. */
  maxTokens: z
    .strictObject({ total: z.number().positive().optional(), input: z.number().positive().optional(), output: z.number().positive().optional() })
    .optional(),
  machine: PersistedMachineSchema,
  signature: z.string().optional(),
});
