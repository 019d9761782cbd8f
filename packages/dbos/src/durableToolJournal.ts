import { type FunctionMiddleware, RunLeaseLostError } from '@agentchart/core';
import { argumentsHash } from '@agentchart/actors/internal';
import { workflowScope } from './workflowScope.js';

/**
 * A function middleware that, inside a chat workflow, sends every tool call
 * through agentchart's journal (the chat's row in the `RunStore`, under the
 * chat's lease), so that a tool runs at most once although the workflow is
 * replayed after a crash:
 * - a call with a recorded result is answered with it, never run again;
 * - a call started but not finished (in doubt: the worker died while it ran)
 *   runs again only when its tool is `idempotent` (same `ctx.idempotencyKey`);
 *   any other becomes a durable wait for a person — `approve <callId>` runs it
 *   again, `record <callId> <json>` answers with that result, `reject` skips it;
 * - a lost lease (another execution took the chat over) stops the call before it runs.
 * The start is written before the tool runs; the result is written beside the
 * next model step, which is recorded only once the result is in.
 * Outside a workflow it does nothing.
 *
 * @example
 * createAgent({ name: 'payer', model: durableModel(model), tools: [pay], middleware: [durableToolJournal()] });
 */
export function durableToolJournal(): FunctionMiddleware {
  return async (ctx, next) => {
    const scope = workflowScope.getStore();
    if (scope === undefined) return next();
    const { runId, callId } = ctx.metadata;
    const journalId = journalCallId(runId, callId);
    const hash = argumentsHash(ctx.arguments);
    const recorded = await fenced(scope.onLeaseLost, () =>
      scope.store.recordCallStarted(scope.lease(), {
        callId: journalId,
        toolName: ctx.tool.name,
        argumentsHash: hash,
        idempotencyKey: `${runId}:${callId}`,
      }),
    );
    const { entry, created } = recorded;
    if (!created && (entry.toolName !== ctx.tool.name || entry.argumentsHash !== hash)) {
      ctx.result = `Call "${callId}" was not run: the journal of this chat has a call with this id of another tool or with other arguments. Call the tool again if it is still needed.`;
      return;
    }
    if (!created && entry.status === 'finished') {
      ctx.result = entry.result; // ran before the crash: never again
      return;
    }
    if (!created && !ctx.tool.idempotent) {
      const decision = await scope.decideInDoubt(entry, ctx.arguments);
      if (decision.kind === 'record') ctx.result = decision.result;
      else if (decision.kind === 'skip') {
        ctx.result = `Call "${callId}" was not run again: it was in doubt after a crash (it may or may not have had its effect), and a person skipped it${decision.reason ? `: ${decision.reason}` : '.'}`;
      }
      if (decision.kind !== 'retry') {
        await fenced(scope.onLeaseLost, () => scope.store.recordCallResult(scope.lease(), journalId, ctx.result ?? null));
        return;
      }
    }
    await next();
    // The result is written beside the next model step (which is recorded only once it is in),
    // not before the chat goes on: the intent above is what keeps the call at most once.
    scope.writeLater(fenced(scope.onLeaseLost, () => scope.store.recordCallResult(scope.lease(), journalId, ctx.result ?? null)));
  };
}

/** The journal's id of a call: the agent run's id (`<chatId>/run-N`) and the run-unique call id. */
export function journalCallId(runId: string, callId: string): string {
  return `${runId}#${callId}`;
}

async function fenced<T>(onLeaseLost: (error: unknown) => void, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof RunLeaseLostError) onLeaseLost(error);
    throw error;
  }
}
