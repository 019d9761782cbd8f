/** After a conditional tool: waiting for its output, or what the output picked. */
export type ConditionalBranch =
  | { status: 'pending'; tool: string }
  | { status: 'chosen'; tool: string; next: string }
  | { status: 'open'; tool: string };

/**
 * The rule machine's memory: plain, finite data (a set of called tools and
 * counts capped at their limits), so every reachable state can be enumerated
 * and a snapshot can be persisted as JSON.
 */
export interface ToolRuleState {
  /** The last admitted tool; `null` before the first call of the run. */
  last: string | null;
  /** Tracked tools (parents, required-before-exit tools) called so far, in tool order. */
  called: string[];
  /** Calls of count-limited tools so far, capped at their limit. */
  counts: Record<string, number>;
  branch: ConditionalBranch | null;
  /** A call of a tool that requires approval, admitted by the rules and waiting for a decision. */
  awaitingApproval: string | null;
  /** `done` once a terminal tool ran or the run ended; `failed` when a required conditional match failed. */
  phase: 'running' | 'done' | 'failed';
}

/** The state at the start of a run. */
export const initialToolRuleState = (): ToolRuleState => ({
  last: null,
  called: [],
  counts: {},
  branch: null,
  awaitingApproval: null,
  phase: 'running',
});
