import { type NewStoredRun, type RunLease, type RunStore, RunStoreError } from '@agentchart/core';

/**
 * Creates a run (or chat) in the store; one with this id that exists but
 * was never checkpointed (its process stopped right after creating it, before
 * anything ran) is taken over and started again. Any other existing one
 * throws `RUN_ALREADY_EXISTS` (resume it instead).
 */
export async function createOrTakeUnstarted(store: RunStore, run: NewStoredRun): Promise<RunLease> {
  try {
    return await store.createRun(run);
  } catch (error) {
    if (!(error instanceof RunStoreError && error.code === 'RUN_ALREADY_EXISTS')) throw error;
    const existing = await store.loadRun(run.runId);
    if (existing === undefined || existing.state !== undefined || existing.kind !== run.kind || existing.name !== run.name) throw error;
    const lease = await store.acquireLease(run.runId, run.owner, run.leaseMs);
    if ((await store.loadRun(run.runId))?.state === undefined) return lease;
    await store.releaseLease(lease);
    throw error;
  }
}
