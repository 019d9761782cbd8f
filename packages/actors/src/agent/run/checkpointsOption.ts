import type { RunCheckpoints } from '../machine/runCheckpoints.js';

/** An internal run option: the checkpoint hooks of a run kept in a store (set by `durable/storedRuns.ts` only). */
export const CHECKPOINTS_OPTION = Symbol('agentchart.checkpoints');

/** The checkpoint hooks set with `CHECKPOINTS_OPTION`, if any. */
export function checkpointsOption(options: object): RunCheckpoints | undefined {
  return (options as { [CHECKPOINTS_OPTION]?: RunCheckpoints })[CHECKPOINTS_OPTION];
}
