import type { ErrorInfo } from '@agentchart/core';
import type { RunResult } from '../run/runResult.js';
import type { AgentMachineInput } from './agentMachineInput.js';

/**
 * Resident agents (docs/group-chat.md, "Resident agents"): in a group chat
 * an agent's actor lives for the whole chat run (its runtime says so,
 * `AgentRuntime.livesForChat`). Its first turn starts it as a run starts
 * (its input, then `start`); every later turn is a `turn` command with that
 * turn's input. A turn ends where a run ends, in the same states with the
 * same `run.finished`; then the actor reports the turn's `RunResult` to its
 * parent (`agent.turn.done`) and goes back to `idle`, where a standalone run
 * goes on to its final state `ended`.
 */

/** The command that begins a resident agent's next turn: the turn's input, and the error it fails with when its tools are unusable. */
export interface AgentTurnCommand {
  type: 'turn';
  input: AgentMachineInput;
  /** Set when the agent's tool sources changed into a list it cannot run with: the turn fails with this, before any model call. */
  unusable?: ErrorInfo | undefined;
}

/** What a resident agent sends its parent at the end of each turn: the result a run that ended there would output. */
export interface AgentTurnDoneEvent {
  type: 'agent.turn.done';
  output: RunResult;
}

/**
 * A turn command for a resident agent.
 *
 * @example
 * actor.send(turnCommand({ runtime, runId, messages: view, toolMode }, undefined));
 */
export function turnCommand(input: AgentMachineInput, unusable: ErrorInfo | undefined): AgentTurnCommand {
  return unusable === undefined ? { type: 'turn', input } : { type: 'turn', input, unusable };
}
