import { type AnyTool, type ToolCall, validateToolArguments } from '@agentchart/core';
import { fromPromise } from 'xstate';
import type { SharedStateHandle } from '../../sharedState/sharedStateHandle.js';
import type { ToolOutcome } from './toolOutcome.js';
import { RunToolContext } from './executeToolCall.js';
import type { LiveToolSet } from '../tools/liveTools.js';

/** A call waiting for a human decision. `id` is the call's id. */
export interface ApprovalRequest {
  id: string;
  toolName: string;
  arguments: unknown;
  step: number;
}

/** A human decision on one request. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** The approvals of the current batch: plain data, persisted with the run. */
export interface ApprovalState {
  requests: ApprovalRequest[];
  decisions: Record<string, ApprovalDecision>;
}

/**
 * The approvals of a batch that asks for none: one frozen object for every
 * batch, so that a step allocates none (approvals are never changed in place:
 * `recordDecision` and `requestApprovals` write new ones).
 */
export const NO_APPROVALS: ApprovalState = { requests: [], decisions: {} };
Object.freeze(NO_APPROVALS.requests);
Object.freeze(NO_APPROVALS.decisions);
Object.freeze(NO_APPROVALS);

/** The requests of `state` that still wait for a decision. */
export function pendingRequests(state: ApprovalState): ApprovalRequest[] {
  return state.requests.filter((request) => state.decisions[request.id] === undefined);
}

/** What the model sees for a call the user rejected (the tool never ran). */
export function rejectedOutcome(toolName: string, decision: ApprovalDecision): ToolOutcome {
  const reason = decision.reason !== undefined && decision.reason !== '' ? ` Reason: ${decision.reason}` : '';
  return { content: `The call of "${toolName}" was rejected by the user and did not run.${reason}`, isError: false };
}

export interface ScreenApprovalsInput {
  calls: readonly ToolCall[];
  tools: ReadonlyMap<string, AnyTool>;
  liveTools: LiveToolSet;
  state: SharedStateHandle;
  agentName: string;
  runId: string;
  step: number;
}

/**
 * Finds the calls of a batch that need a human decision: calls of tools with
 * `approval: 'always'`, and calls whose validated arguments a tool's
 * predicate flags. Calls that cannot run anyway (unknown tool, invalid
 * arguments, a `oneCallAtATime` call beside others) are not asked about:
 * they are answered with their error. A
 * predicate that throws asks for approval (the safe side).
 */
export const screenApprovalsActor = fromPromise<ApprovalRequest[], ScreenApprovalsInput>(async ({ input }) => {
  const requests: ApprovalRequest[] = [];
  const env = {
    ...input,
    signal: () => new AbortController().signal,
    stateFor: (call: ToolCall) => input.state.withSource({ agent: input.agentName, toolName: call.name, callId: call.id }),
    onToolsChanged: () => {},
    // Screening only validates arguments: no tool runs, so there is no progress to report.
    onProgress: () => {},
  };
  for (const call of input.calls) {
    const tool = input.tools.get(call.name);
    if (tool === undefined || tool.approval === 'never') continue;
    let validation: Awaited<ReturnType<typeof validateToolArguments>>;
    try {
      validation = await validateToolArguments(tool, call, new RunToolContext(call, tool, env));
    } catch {
      continue; // a ToolError from a refinement: the call will be answered with it
    }
    if (!validation.ok) continue;
    let needed: boolean;
    try {
      needed = await tool.needsApproval(validation.args, {
        callId: call.id,
        toolName: tool.name,
        agentName: input.agentName,
        runId: input.runId,
      });
    } catch {
      needed = true;
    }
    if (needed) requests.push({ id: call.id, toolName: call.name, arguments: call.arguments, step: input.step });
  }
  return requests;
});
