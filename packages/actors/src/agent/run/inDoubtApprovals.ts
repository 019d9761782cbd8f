import type { AnyTool, ToolCallJournalEntry } from '@agentchart/core';
import type { PersistedRun } from './runSnapshot.js';
import { type SnapshotKey, signSnapshot, verifySnapshot } from './snapshotSignature.js';

/**
 * The stored snapshot with an approval request for every in-doubt call of a
 * tool that is not idempotent: a checkpoint in a batch (`acting`, or
 * `batchReady`) becomes a wait for approval (re-signed when the agent signs;
 * the original signature is checked first). A batch not screened yet
 * (`batchReady`) also asks for every other call of a tool that may need
 * approval, since it cannot be screened beside a person's decisions.
 */
export function withInDoubtRequests(
  state: unknown,
  journal: readonly ToolCallJournalEntry[],
  tools: ReadonlyMap<string, AnyTool>,
  snapshotKey: SnapshotKey | undefined,
): { snapshot: PersistedRun; inDoubt: ToolCallJournalEntry[] } {
  const snapshot = state as PersistedRun;
  const machine = (snapshot as { machine?: { value?: unknown; context?: WaitingShape } }).machine;
  const context = machine?.context;
  if (
    context === undefined ||
    !Array.isArray(context.batch?.calls) ||
    !context.batch.calls.every((call) => typeof call === 'object' && call !== null) ||
    !Array.isArray(context.batch?.outcomes) ||
    !Array.isArray(context.approvals?.requests)
  ) {
    return { snapshot, inDoubt: [] }; // agent.resume says what is wrong with it
  }
  const { calls, outcomes } = context.batch;
  const batchIds = new Set(calls.map((call) => call.id));
  const inDoubt = journal.filter((entry) => entry.status === 'started' && batchIds.has(entry.callId));
  const doubted = new Set(inDoubt.filter((entry) => tools.get(entry.toolName)?.idempotent !== true).map((entry) => entry.callId));
  if (doubted.size === 0) return { snapshot, inDoubt };
  const requested = new Set(context.approvals.requests.map((request) => request.id));
  const unscreened = machine?.value === 'batchReady';
  const toAsk = calls.filter(
    (call, index) =>
      (outcomes[index] ?? null) === null &&
      (doubted.has(call.id) || (unscreened && !requested.has(call.id) && (tools.get(call.name)?.approval ?? 'never') !== 'never')),
  );
  if (snapshotKey !== undefined) verifySnapshot(snapshot, snapshotKey, 'stored run');
  const askIds = new Set(toAsk.map((call) => call.id));
  const order = new Map(calls.map((call, index) => [call.id, index]));
  const requests = [
    ...context.approvals.requests.filter((request) => !askIds.has(request.id)),
    ...toAsk.map((call) => ({ id: call.id, toolName: call.name, arguments: call.arguments, step: context.step })),
  ].sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const decisions = Object.fromEntries(Object.entries(context.approvals.decisions ?? {}).filter(([id]) => !askIds.has(id)));
  const { signature: _signature, ...unsigned } = structuredClone(snapshot);
  const edited = unsigned as PersistedRun;
  (edited.machine as { value: string }).value = 'awaitingApproval';
  (edited.machine.context as unknown as WaitingShape).approvals = { requests, decisions };
  return { snapshot: snapshotKey === undefined ? edited : signSnapshot(edited, snapshotKey), inDoubt };
}

interface WaitingShape {
  step: number;
  batch: { calls: { id: string; name: string; arguments?: unknown }[]; outcomes: unknown[] };
  approvals: { requests: { id: string; toolName: string; arguments: unknown; step: number }[]; decisions?: Record<string, unknown> };
}
