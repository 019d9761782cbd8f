import type { ActorRefFrom } from 'xstate';
import type { AgentMachineInput, agentMachine } from '../agent/machine/agentMachine.js';

/** Spawns an agent's turn as the manager's `speaker` child: the agent's own machine, with its input or restored from a snapshot. */
export type SpeakerSpawner = (logic: typeof agentMachine, options: { id: 'speaker'; input?: AgentMachineInput }) => ActorRefFrom<typeof agentMachine>;

/**
 * The manager's `spawn`, typed for an agent's turn. The turn's logic is the
 * agent's own machine (its compiled rules provided), not one of the manager's
 * `actors` keys, and XState's `Spawner` type lets inline logic have no `id`
 * (`id?: never`) although its runtime takes one; the manager needs the id
 * (`speaker`: its done event, `sendTo`, `stopChild`). This is the one place
 * that says so (the only cast left in the manager): the function XState
 * passes is called as it is.
 *
 * @example
 * const child = speakerSpawner(spawn)(turn.machine, { id: 'speaker', input });
 */
export function speakerSpawner(spawn: unknown): SpeakerSpawner {
  return spawn as SpeakerSpawner;
}
