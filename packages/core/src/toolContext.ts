import type { SharedState } from './sharedState.js';

/**
 * What a tool receives beside its arguments. The model never sees it.
 *
 * @example
 * execute: async ({ url }, ctx) => fetch(url, { signal: ctx.signal })
 */
export interface ToolContext {
  /** The id of the call being executed. */
  readonly callId: string;
  /** The name of the tool being executed. */
  readonly toolName: string;
  /** The agent that runs the tool. */
  readonly agentName: string;
  /** The run the call belongs to. */
  readonly runId: string;
  /** Aborted when the run is aborted: pass it to anything that waits. */
  readonly signal: AbortSignal;
  /** The run's (or group chat's) shared state; see `SharedState`. */
  readonly state: SharedState;
}
