import type { RunEventOf, StateChange } from '@agentchart/core';

/**
 * The `state.changed` run event for a change. `agent` is the agent whose tool
 * made the change, or `ownerAgent` when the change came from outside a tool.
 *
 * @example
 * state.changes$.subscribe((change) => events.next(stateChangedEvent(change, runId, agentName)));
 */
export function stateChangedEvent(change: StateChange, runId: string, ownerAgent: string): RunEventOf<'state.changed'> {
  const event: RunEventOf<'state.changed'> = {
    type: 'state.changed',
    runId,
    agent: change.source?.agent ?? ownerAgent,
    key: change.key,
    value: change.value,
    previous: change.previous,
    deleted: change.deleted,
    version: change.version,
  };
  if (change.source?.toolName !== undefined) event.toolName = change.source.toolName;
  if (change.source?.callId !== undefined) event.callId = change.source.callId;
  return event;
}
