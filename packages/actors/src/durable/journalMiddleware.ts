import { type FunctionMiddleware, type RunLease, RunLeaseLostError, type RunStore } from '@agentchart/core';
import { idempotencyKeyOf } from '../agent/machine/executeToolCall.js';
import { argumentsHash } from './argumentsHash.js';

/** Where the journal middleware writes, and what it does when the lease is gone. */
export interface JournalTarget {
  store: RunStore;
  /** The current lease (renewed in the background). */
  lease: () => RunLease;
  /** Called once when a write is refused because the lease was lost: stop the run. */
  onLeaseLost: (error: RunLeaseLostError) => void;
  /**
   * Receives each execution as it starts. A run stopped for a lost lease
   * ends at once, but a tool already executing goes on; whoever releases the
   * run waits for these first, so the run is not taken again (and its
   * in-doubt calls offered to a person) while an effect may still land.
   */
  track?: (execution: Promise<unknown>) => void;
  /**
   * Runs each journal write in the run's order of writes (after the
   * checkpoints queued before it: see `RunWriter`); directly when absent.
   */
  serialize?: <T>(write: () => Promise<T>) => Promise<T>;
  /**
   * The journal's id of a call (default: the call id). A group chat's
   * journal holds every turn's calls, so it uses `<runId>/<callId>`.
   */
  journalId?: (runId: string, callId: string) => string;
}

/**
 * Records every tool call in the store's journal around its execution:
 * started (with an argument hash and the idempotency key) before the tool
 * runs, the result after. A call the journal already has is not executed
 * again: a finished one is answered with its recorded result; one in doubt
 * (started, no result: a crash mid-call) reaches here only when it may run
 * again — its tool is `idempotent`, or a person approved it (in-doubt calls
 * are turned into approval requests on resume) — and runs with the same
 * `ctx.idempotencyKey`. A lost lease stops the call before it runs.
 *
 * @example
 * agent.resume(snapshot, { middleware: [journalMiddleware({ store, lease: () => lease, onLeaseLost: () => run.abort() })] });
 */
export function journalMiddleware(target: JournalTarget): FunctionMiddleware {
  const serialize = target.serialize ?? (<T>(write: () => Promise<T>) => write());
  const journalId = target.journalId ?? ((_runId: string, callId: string) => callId);
  return async (ctx, next) => {
    const { runId } = ctx.metadata;
    const callId = journalId(runId, ctx.metadata.callId);
    const hash = argumentsHash(ctx.arguments);
    let recorded: Awaited<ReturnType<typeof target.store.recordCallStarted>>;
    try {
      recorded = await serialize(() =>
        target.store.recordCallStarted(target.lease(), {
          callId,
          toolName: ctx.tool.name,
          argumentsHash: hash,
          idempotencyKey: idempotencyKeyOf(runId, ctx.metadata.callId),
        }),
      );
    } catch (error) {
      if (error instanceof RunLeaseLostError) target.onLeaseLost(error);
      throw error;
    }
    const { entry, created } = recorded;
    if (!created && (entry.toolName !== ctx.tool.name || entry.argumentsHash !== hash)) {
      ctx.result = `Call "${callId}" was not run: the journal of this run has a call with this id of another tool or with other arguments (a model call re-made after a resume). Call the tool again if it is still needed.`;
      return;
    }
    if (!created && entry.status === 'finished') {
      ctx.result = entry.result; // executed before the crash: never again
      return;
    }
    const execution = next();
    target.track?.(execution);
    await execution;
    try {
      await serialize(() => target.store.recordCallResult(target.lease(), callId, ctx.result ?? null));
    } catch (error) {
      if (error instanceof RunLeaseLostError) target.onLeaseLost(error);
      throw error;
    }
  };
}
