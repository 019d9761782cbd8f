import type { RunEvent } from '@agentchart/core';
import type { AnyActorRef } from 'xstate';
import type { AgentContext } from './agentContext.js';

/**
 * Listens to every run event of an agent actor: those its machine emits and
 * those its model caller emits for a fused step (docs/performance.md, "One
 * event per step"). Both go out as they happen, so the listener sees them
 * in the order the run produced them.
 *
 * @example
 * onAgentEvents(actor, (event) => events.next(event));
 */
export function onAgentEvents(actor: AnyActorRef, listener: (event: RunEvent) => void): void {
  actor.on('*', listener);
  onFusedStepEvents(actor, listener);
}

/**
 * Listens to the run events an agent actor's model caller emits for its
 * fused steps only: for a caller that already listens to the agent actor
 * itself (a root run, see `startRootRun`).
 *
 * @example
 * onFusedStepEvents(actor, (event) => bus.next(event));
 */
export function onFusedStepEvents(actor: AnyActorRef, listener: (event: RunEvent) => void): void {
  (actor.getSnapshot() as { context: AgentContext }).context.runtime.fusedStep.listeners.push(listener);
}
