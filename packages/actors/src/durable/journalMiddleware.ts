import {
  type ErrorInfo,
  type FunctionMiddleware,
  type JournalWrite,
  type RunLease,
  RunLeaseLostError,
  type RunStore,
  type ToolCallJournalEntry,
  ToolError,
} from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import { idempotencyKeyOf } from '../agent/machine/executeToolCall.js';
import { argumentsHash } from './argumentsHash.js';
import { readRecorded } from './recordedResult.js';

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
   * Queues each journal write on the run's writer (`RunWriter.journal`: in
   * the run's order of writes, in one transaction with the checkpoint before
   * it). A call's `started` entry is queued with `now` and awaited before the
   * tool executes; its result is queued without, and not awaited: it is
   * stored with the run's next write at the latest (the next checkpoint
   * cannot be stored without it), and a failure to store it fails the run
   * through the writer. Absent: each write goes to the store at once, and
   * is awaited.
   */
  queue?: (write: JournalWrite, now: boolean) => Promise<{ entry: ToolCallJournalEntry; created: boolean }>;
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
  const queue = target.queue;
  const journalId = target.journalId ?? ((_runId: string, callId: string) => callId);
  return async (ctx, next) => {
    const { runId } = ctx.metadata;
    const callId = journalId(runId, ctx.metadata.callId);
    const hash = argumentsHash(ctx.arguments);
    let recorded: Awaited<ReturnType<typeof target.store.recordCallStarted>>;
    try {
      const start = { callId, toolName: ctx.tool.name, argumentsHash: hash, idempotencyKey: idempotencyKeyOf(runId, ctx.metadata.callId) };
      recorded = await (queue === undefined ? target.store.recordCallStarted(target.lease(), start) : queue({ kind: 'started', start }, true));
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
      const thrown = thrownOf(entry.result);
      if (thrown !== undefined) throw thrown; // it failed before the crash: the model hears the same failure
      const recorded = readRecorded(entry.result);
      if (recorded === 'damaged') {
        throw new ToolError('This call was recorded by hand, but its record is unreadable (a damaged journal entry), so it was not run again.');
      }
      if (recorded === undefined) {
        ctx.result = entry.result; // executed before the crash: never again
        return;
      }
      // Recorded by hand with the shared-state writes the call made: they land as the tool's own would have.
      for (const [key, value] of recorded.state) ctx.toolContext.state.set(key, value);
      ctx.result = recorded.result;
      return;
    }
    const execution = next();
    target.track?.(execution);
    let failure: { error: unknown } | undefined;
    try {
      await execution;
    } catch (error) {
      failure = { error };
    }
    // A tool that threw ran too: its failure is its recorded result (not left in doubt).
    const result = failure === undefined ? (ctx.result ?? null) : { [THROWN]: toErrorInfo(failure.error) };
    if (queue !== undefined) {
      // Not awaited: stored before the run's next checkpoint; a failure fails the run through the writer.
      queue({ kind: 'result', callId, result }, false).catch(() => {});
    } else {
      try {
        await target.store.recordCallResult(target.lease(), callId, result);
      } catch (error) {
        if (error instanceof RunLeaseLostError) target.onLeaseLost(error);
        throw error;
      }
    }
    if (failure !== undefined) throw failure.error;
  };
}

/** The key under which the journal records a call whose tool threw. */
const THROWN = 'agentchart.thrown';

/** The error a recorded failure stands for (a `ToolError` stays one, so the model reads it the same way). */
function thrownOf(result: unknown): Error | undefined {
  if (typeof result !== 'object' || result === null || !Object.hasOwn(result, THROWN)) return undefined;
  const info = (result as Record<string, unknown>)[THROWN] as Partial<ErrorInfo> | null;
  if (typeof info !== 'object' || info === null || typeof info.message !== 'string') {
    // A damaged record (the journal is input): say what is known, never a TypeError of ours.
    return new ToolError(
      'This call failed before the run was resumed; its recorded failure is unreadable (a damaged journal entry), so it was not run again.',
    );
  }
  if (info.code === 'TOOL_ERROR') return new ToolError(info.message);
  const error = new Error(info.message);
  if (typeof info.name === 'string') error.name = info.name;
  return error;
}
