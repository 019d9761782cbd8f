import type { StateRecord } from '@agentchart/core';
import { type SharedStateHandle, slotStateHandle } from '../../sharedState/sharedStateHandle.js';
import type { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';
import type { AgentContext } from '../machine/agentContext.js';

/**
 * How a run gets its shared state: its own (systemId `sharedState`, made
 * when first needed: see `SharedStateSlot`) with these initial values — the
 * default, one per run — or the shared state of the group chat it takes
 * part in.
 */
export type RunSharedStateInput = { initial: StateRecord } | { slot: SharedStateSlot };

/** The shared state as the agent's tools see it: checked by the agent's schema, tagged with the agent. */
export function toolStateHandle(context: AgentContext): SharedStateHandle {
  return slotStateHandle(context.sharedState, {
    schema: context.runtime.stateSchema,
    source: { agent: context.runtime.agentName },
  });
}
