import type { ErrorInfo, RunEvent } from '@agentchart/core';
import type { Actor } from 'xstate';
import type { agentMachine } from '../agent/machine/agentMachine.js';
import type { AgentMachineInput } from '../agent/machine/agentMachineInput.js';
import { type AgentTurnCommand, turnCommand } from '../agent/machine/agentTurn.js';
import { machineFor } from '../agent/run/agentRun.js';
import type { ManagerContext } from './managerContext.js';
import { speakerSpawner } from './speakerSpawner.js';
import type { ResidentAgents } from './residentAgent.js';

/** The manager's child id of `name`'s resident agent. */
export const agentChildId = (name: string): string => `agent:${name}`;

/**
 * The actor of the agent whose turn is being taken, if it is one on the
 * actor path. Read it only while the manager is in `speaking.agent`: between
 * turns the last speaker's resident holds its finished turn.
 *
 * @example
 * const actor = snapshot.matches({ speaking: 'agent' }) ? speakingResident(snapshot.context) : undefined;
 */
export function speakingResident(context: Pick<ManagerContext, 'speaker' | 'run'>): Actor<typeof agentMachine> | undefined {
  return context.speaker === undefined ? undefined : context.run.agents.get(context.speaker)?.actor;
}

/** How the speaking agent's turn begins on the actor path: its resident takes it, or a new resident is spawned for it. */
export type AgentTurnPlan =
  | { kind: 'command'; command: AgentTurnCommand }
  | { kind: 'spawn'; stale: Actor<typeof agentMachine> | undefined; logic: typeof agentMachine };

/**
 * Plans `name`'s turn with `input`: a `turn` command to its resident when it
 * has one running the same machine, else a spawn (stopping a stale resident).
 *
 * @example
 * const plan = planAgentTurn(context.run.agents, 'writer', input, turn.unusable);
 */
export function planAgentTurn(agents: ResidentAgents, name: string, input: AgentMachineInput, unusable: ErrorInfo | undefined): AgentTurnPlan {
  const logic = machineFor(input.runtime);
  const resident = agents.get(name);
  if (resident !== undefined && resident.logic === logic) return { kind: 'command', command: turnCommand(input, unusable) };
  if (resident !== undefined) agents.delete(name);
  return { kind: 'spawn', stale: resident?.actor, logic };
}

/**
 * Spawns `name`'s resident agent with XState's `spawn` (from an `assign`):
 * `logic` is its resident machine, `input` its first turn's.
 *
 * @example
 * spawnResident(spawn, context.run, 'writer', { logic, input });
 */
export function spawnResident(
  spawn: unknown,
  run: Pick<ManagerContext['run'], 'agents' | 'bridge'>,
  name: string,
  { logic, input }: { logic: typeof agentMachine; input: AgentMachineInput },
): void {
  const id = agentChildId(name);
  adoptResident(run, name, speakerSpawner(spawn)(logic, { id, input }), logic);
}

/**
 * Makes `actor`, the manager's child `agent:<name>` running `logic`, the
 * run's resident agent `name`: its events go onto the chat's bus. A spawned
 * resident (`spawnResident`), or one XState restored with the manager.
 *
 * @example
 * adoptResident(context.run, 'writer', restoredChild, turn.machine);
 */
export function adoptResident(
  run: Pick<ManagerContext['run'], 'agents' | 'bridge'>,
  name: string,
  actor: Actor<typeof agentMachine>,
  logic: typeof agentMachine,
): void {
  const { bridge } = run;
  // The bridge, not the chat id and bus of the run that spawned it: a resident manager's next run takes the agent over.
  const listener = (event: RunEvent) => bridge.publish({ type: 'agent.event', chatId: bridge.chatId, speaker: name, event });
  actor.on('*', listener);
  run.agents.set(name, { actor, logic });
}
