import type { Actor } from 'xstate';
import type { agentMachine } from '../agent/machine/agentMachine.js';
import type { AgentMachineInput } from '../agent/machine/agentMachineInput.js';

/** Spawns an agent of the chat as a child of the manager (see `residentAgents.ts`): its resident machine, with its first turn's input. */
export type SpeakerSpawner = (logic: typeof agentMachine, options: { id: string; input: AgentMachineInput }) => Actor<typeof agentMachine>;

/**
 * The manager's `spawn`, typed for an agent. The agent's logic is its own
 * machine (its compiled rules provided), not one of the manager's `actors`
 * keys, and XState's `Spawner` type lets inline logic have no `id`
 * (`id?: never`) although its runtime takes one; the manager needs the id
 * (its child `agent:<name>`, reached by `sendTo`), and the `Actor` XState
 * makes (a run is persisted from it). This is the one place that says so:
 * the function XState passes is called as it is.
 *
 * @example
 * const child = speakerSpawner(spawn)(turn.machine, { id: 'agent:writer', input });
 */
export function speakerSpawner(spawn: unknown): SpeakerSpawner {
  return spawn as SpeakerSpawner;
}
