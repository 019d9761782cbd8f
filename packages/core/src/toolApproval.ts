/** What an approval predicate receives beside the call's validated arguments. */
export interface ApprovalContext {
  readonly callId: string;
  readonly toolName: string;
  readonly agentName: string;
  readonly runId: string;
}

/**
 * Whether a call of a tool waits for a human decision before it runs:
 * `never` (the default), `always`, or a predicate over the call's validated
 * arguments.
 *
 * @example
 * approval: ({ amount }) => amount > 100   // large transfers need a human
 */
export type ToolApproval<A = Record<string, unknown>> = 'never' | 'always' | ((args: A, ctx: ApprovalContext) => boolean | Promise<boolean>);

/** True when `value` is a valid `approval` setting. */
export function isToolApproval(value: unknown): value is ToolApproval<never> {
  return value === 'never' || value === 'always' || typeof value === 'function';
}
