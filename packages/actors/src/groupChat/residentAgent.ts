import type { Actor } from 'xstate';
import type { agentMachine } from '../agent/machine/agentMachine.js';

/**
 * A chat run's resident agents (docs/group-chat.md, "Resident agents"): on
 * the actor path each agent's actor is spawned at its first turn, as the
 * manager's child `agent:<name>`, and takes every later turn of the run as a
 * `turn` command; the chat's end stops it. A turn whose agent machine is not
 * the resident's (the agent's tool sources changed its rules) gets a new
 * actor. A turn that fails ends the chat (`reviewTurn`), and the chat's end
 * stops every resident: no turn follows one that may have left a model call
 * or tools running.
 */
export interface ResidentAgent {
  readonly actor: Actor<typeof agentMachine>;
  /** The agent machine the actor runs (`machineFor` the agent's rules). */
  readonly logic: typeof agentMachine;
}

/** The resident agents of a chat run, by participant name (`ManagerRun.agents`). */
export type ResidentAgents = Map<string, ResidentAgent>;
