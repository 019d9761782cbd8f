import type { ErrorInfo, RunEvent } from '@agentchart/core';
import { type AnyEventObject, assign, createMachine, enqueueActions, sendParent, stopChild } from 'xstate';
import { type RunResult, toRunResult } from '../run/runResult.js';
import type { AgentContext } from './agentContext.js';
import { type AgentMachineInput, type agentMachine, initialAgentContext } from './agentMachine.js';

/**
 * Resident agents (docs/group-chat.md, "Resident agents"): in a group chat an
 * agent's actor lives for the whole chat run. Its first turn starts it as a
 * run starts (its input, then `start`); every later turn is a `turn` command
 * with that turn's input (its view, a new run id, the turn's runtime). A turn
 * ends where a run ends — in the same states, with the same `run.finished` —
 * and then, instead of stopping, the actor reports the turn's `RunResult`
 * to its parent (`agent.turn.done`) and goes back to `idle`.
 *
 * The resident machine is derived from the agent's own machine, not written
 * beside it: the same states, guards and actions, with a `turn` command in
 * `idle` and every final state made the end of a turn. An XState actor that
 * reaches a top-level final state is done for good, so a machine whose ends
 * were final could never take a second turn; deriving the variant keeps the
 * standalone machine (`agent.run`) exactly as it is — it still ends in its
 * final state with its output — and keeps both in step with every change to it.
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

/** A state's config as the derivation reads it. */
interface StateConfig {
  type?: string;
  entry?: unknown;
  on?: Record<string, unknown>;
  always?: unknown;
  [key: string]: unknown;
}

/**
 * A new turn: the per-run context again, `run.started`, and the rules' mirror
 * from their start. The shared state is the chat's the turn names (a
 * resident nested chat's next run has a new one), else the agent's own kept.
 */
const beginTurn = enqueueActions(({ context, event, enqueue }: { context: AgentContext; event: AnyEventObject; enqueue: TurnEnqueue }) => {
  const { input } = event as AgentTurnCommand;
  const next = initialAgentContext(input, input.state !== undefined && 'slot' in input.state ? input.state.slot : context.sharedState);
  enqueue.assign(next);
  enqueue.emit({ type: 'run.started', runId: next.runId, agent: next.runtime.agentName, input: next.messages } satisfies RunEvent);
  // The rules' machine (for the inspector only) starts over with the turn, as a new run's would.
  if (next.runtime.toolRules !== undefined && next.runtime.mirrorToolRules === true) {
    enqueue.stopChild('toolRules');
    enqueue.spawnChild('toolRules', { id: 'toolRules' });
  }
});

/** What `beginTurn` needs of XState's `enqueue`. */
interface TurnEnqueue {
  assign(patch: Partial<AgentContext>): void;
  emit(event: RunEvent): void;
  stopChild(id: string): void;
  spawnChild(src: 'toolRules', options: { id: 'toolRules' }): void;
}

/**
 * The end of a turn: its result to the parent (the manager), as the run's
 * output would be. The tool runner goes with the turn (the next turn's first
 * full-path batch spawns one, as a run's does): a run persisted while it waits
 * for approval then lists the children a run of one turn would have, so a
 * chat snapshot is what it was with an actor per turn.
 */
const reportTurn = sendParent(
  ({ context }: { context: AgentContext }) => ({ type: 'agent.turn.done', output: toRunResult(context) }) satisfies AgentTurnDoneEvent,
);

/** In `idle`: the next turn begins; a turn whose tools are unusable fails at once (as `tools.unusable` ends a run). */
const turnTransitions = [
  {
    guard: ({ event }: { event: AnyEventObject }) => (event as AgentTurnCommand).unusable !== undefined,
    target: 'failed',
    actions: [beginTurn, assign({ error: ({ event }: { event: AnyEventObject }) => (event as AgentTurnCommand).unusable })],
  },
  { target: 'thinking', actions: [beginTurn, 'takeStep'] },
];

/** Resident machines already derived, by the agent machine they come from (one per compiled rule set, see `machineFor`). */
const residentMachines = new WeakMap<typeof agentMachine, typeof agentMachine>();

/**
 * The resident variant of an agent machine (see above), derived once per
 * machine. Its actor's first turn starts as a run does; later turns are
 * `turn` commands; each turn's end sends `agent.turn.done` to the parent.
 *
 * @example
 * const ref = spawn(residentAgentMachine(machineFor(runtime)), { id: 'agent:writer', input });
 * ref.send({ type: 'start' }); // … agent.turn.done, then later: ref.send({ type: 'turn', input: next });
 */
export function residentAgentMachine(machine: typeof agentMachine): typeof agentMachine {
  let resident = residentMachines.get(machine);
  if (resident === undefined) {
    // The machine's config is plain data (state configs, action and guard references): read as such.
    const config = machine.config as unknown as { states: Record<string, StateConfig> };
    const states: Record<string, StateConfig> = {};
    for (const [key, state] of Object.entries(config.states)) {
      if (key === 'idle') states[key] = { ...state, on: { ...state.on, turn: turnTransitions } };
      else if (state.type === 'final') {
        const { type: _final, ...rest } = state;
        states[key] = { ...rest, always: { target: 'idle', actions: [reportTurn, stopChild('toolRunner')] } };
      } else states[key] = state;
    }
    // The same implementations (the agent's compiled rules included): only the statechart's ends differ.
    resident = createMachine({ ...config, states } as never, machine.implementations as never) as unknown as typeof agentMachine;
    residentMachines.set(machine, resident);
  }
  return resident;
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
