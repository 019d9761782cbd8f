import type { StateRecord } from '@agentchart/core';
import { type SharedStateHandle, sharedStateHandle } from '../../sharedState/sharedStateHandle.js';
import type { SharedStateRef } from '../../sharedState/sharedStateMachine.js';
import type { AgentContext } from '../machine/agentContext.js';

/**
 * How a run gets its shared state: its own actor (systemId `sharedState`)
 * with these initial values — the default, one per run — or the shared-state
 * actor of the group chat it takes part in.
 */
export type RunSharedStateInput = { initial: StateRecord } | { ref: SharedStateRef };

/** The shared state as the agent's tools see it: checked by the agent's schema, tagged with the agent. */
export function toolStateHandle(context: AgentContext): SharedStateHandle {
  return sharedStateHandle(context.sharedState, {
    schema: context.runtime.stateSchema,
    source: { agent: context.runtime.agentName },
  });
}
