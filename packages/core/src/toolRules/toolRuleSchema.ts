import { z } from 'zod';

const toolName = z.string().min(1);
/** Arguments that override the model's values for the same keys. */
const prefilledArgs = z.record(z.string(), z.unknown());

/** Before the first tool call of a run, only init tools are allowed. */
export const InitRuleSchema = z.object({ type: z.literal('init'), tool: toolName, args: prefilledArgs.optional() });
/** Calling the tool ends the run once it has executed. */
export const TerminalRuleSchema = z.object({ type: z.literal('terminal'), tool: toolName });
/** After the tool the model must be called again: the run cannot end on it. */
export const ContinueRuleSchema = z.object({ type: z.literal('continue'), tool: toolName });
/** Right after the tool, only its children are allowed (and one must be called). */
export const ChildRuleSchema = z.object({
  type: z.literal('child'),
  tool: toolName,
  children: z.array(toolName),
  /** Per child: arguments that override the model's values when the child follows the tool. */
  childArgs: z.record(toolName, prefilledArgs).optional(),
});
/** The children are allowed only once the tool has been called in this run. */
export const ParentRuleSchema = z.object({ type: z.literal('parent'), tool: toolName, children: z.array(toolName) });

/** A conditional key: a string, number or boolean (a typed key also matches its string form). */
export const ConditionalKeySchema = z.union([z.string(), z.number(), z.boolean()]);
export type ConditionalKey = z.infer<typeof ConditionalKeySchema>;

/** Right after the tool, its output picks the next tool. */
export const ConditionalRuleSchema = z.object({
  type: z.literal('conditional'),
  tool: toolName,
  /** Matched against the tool's returned value in declaration order; the first match wins. */
  cases: z.array(z.object({ when: ConditionalKeySchema, then: toolName })),
  /** The next tool when no case matches. */
  defaultChild: toolName.optional(),
  /** No case matches and no default: fail the run (instead of allowing any tool). */
  requireMatch: z.boolean().optional(),
});
/** At most `limit` calls of the tool in one run. */
export const MaxCountRuleSchema = z.object({
  type: z.literal('maxCount'),
  tool: toolName,
  limit: z.number().int().nonnegative(),
});
/** The run may not end (by a final answer or a terminal tool) until the tool has run. */
export const RequiredBeforeExitRuleSchema = z.object({ type: z.literal('requiredBeforeExit'), tool: toolName });
/** A call of the tool waits for a human decision (`run.pendingApprovals`, `approve`, `reject`). */
export const RequiresApprovalRuleSchema = z.object({ type: z.literal('requiresApproval'), tool: toolName });

/**
 * A tool rule in agentchart's form (what the `rules` builder makes). Letta's
 * JSON form is accepted too, see `LettaToolRuleSchema`.
 */
export const ToolRuleSchema = z.discriminatedUnion('type', [
  InitRuleSchema,
  TerminalRuleSchema,
  ContinueRuleSchema,
  ChildRuleSchema,
  ParentRuleSchema,
  ConditionalRuleSchema,
  MaxCountRuleSchema,
  RequiredBeforeExitRuleSchema,
  RequiresApprovalRuleSchema,
]);
export type ToolRule = z.infer<typeof ToolRuleSchema>;
export type ToolRuleType = ToolRule['type'];
export type ToolRuleOf<T extends ToolRuleType> = Extract<ToolRule, { type: T }>;
export type InitRule = ToolRuleOf<'init'>;
export type ChildRule = ToolRuleOf<'child'>;
export type ParentRule = ToolRuleOf<'parent'>;
export type ConditionalRule = ToolRuleOf<'conditional'>;
export type MaxCountRule = ToolRuleOf<'maxCount'>;
