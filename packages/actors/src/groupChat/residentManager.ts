import { type AnyActorRef, type AnyEventObject, assign, createMachine, enqueueActions } from 'xstate';
import { SHARED_STATE_SYSTEM_ID } from '../sharedState/sharedStateMachine.js';
import type { ManagerContext } from './managerContext.js';
import { type ManagerInput, initialManagerContext, managerMachine, managerOutput } from './managerMachine.js';
import type { GroupChatResult } from './groupChatTypes.js';
import { participantChildId } from './residentParticipants.js';

/**
 * A resident manager (docs/group-chat.md, "Resident participants"): a nested
 * chat made by `createGroupChat` keeps one manager actor for the whole outer
 * run. Each outer turn is a new run of the nested chat — the same events,
 * ids and result as a run of its own — on that actor: a `run` command in
 * `idle` sets up the run's context from its `ManagerInput` (a new chat id,
 * bus, shared state, checkpoints), then `start` begins it as it begins a new
 * actor. Where the run ends — `terminated`, with the same `chat.finished` —
 * the actor stops what the run spawned (its resident agents and
 * participants, its shared state), emits `RUN_ENDED` with the run's output,
 * and goes back to `idle` instead of ending.
 *
 * The resident machine is derived from the manager machine, not written
 * beside it (as `residentAgentMachine` derives the agent's): a standalone
 * run (`chat.run`) keeps its final state and its output.
 */

/** The event a resident manager emits when a run ends: the output a standalone run would have. (Not a chat event: never on `events$`.) */
export const RUN_ENDED = 'xstate.agentchart.run.ended';

/** What a resident manager emits at the end of each run. */
export interface RunEndedEvent {
  type: typeof RUN_ENDED;
  output: GroupChatResult;
}

/** The command that sets up a resident manager's next run (in `idle`). */
interface ManagerRunCommand {
  type: 'run';
  input: ManagerInput;
}

/** A state's config as the derivation reads it. */
interface StateConfig {
  type?: string;
  on?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What the resident machine's actions are given by XState (its config is derived untyped). */
interface RunActionArgs {
  context: ManagerContext;
  event: AnyEventObject;
  self: AnyActorRef;
}

/**
 * A new run: the per-run context from its input (the shared state's actor
 * made again when the chat is inspected), with the resident agents and
 * participants the previous run left idle.
 */
const beginRun = assign(({ context, event, spawn, self }: RunActionArgs & { spawn: unknown }) => {
  const { input } = event as ManagerRunCommand;
  const spawnChild = spawn as (src: 'sharedState', options: { systemId: string; input: { initial: Record<string, unknown> } }) => never;
  const spawnSharedState = () => spawnChild('sharedState', { systemId: SHARED_STATE_SYSTEM_ID, input: { initial: input.sharedState } });
  return initialManagerContext(input, self, spawnSharedState, context.run);
});

/**
 * The end of a run: its output goes out. What it spawned is stopped (as a
 * standalone run's end stops its children), except its resident agents that
 * are idle — between turns — and its resident participants, which the next
 * run takes over. An agent stopped in the middle of a turn (the run was
 * aborted, or ended while it waited for approval) is stopped, as it would
 * be. A participant has no turn left by then: a run ends in one of its turns
 * only by an abort, whose exit from the turn stopped the turn
 * (`stopDelegatedTurn`).
 */
const endRun = enqueueActions(
  ({ context, self, enqueue }: RunActionArgs & { enqueue: { stopChild(ref: AnyActorRef): void; emit(event: RunEndedEvent): void } }) => {
    const { agents, participants } = context.run;
    const kept = new Set<AnyActorRef>();
    for (const [name, { actor }] of agents) {
      if (isIdle(actor)) kept.add(actor);
      else agents.delete(name);
    }
    const { children } = self.getSnapshot() as { children: Record<string, AnyActorRef | undefined> };
    for (const name of participants) {
      const actor = children[participantChildId(name)];
      if (actor !== undefined) kept.add(actor);
      else participants.delete(name);
    }
    for (const child of Object.values(children)) if (child !== undefined && !kept.has(child)) enqueue.stopChild(child);
    enqueue.emit({ type: RUN_ENDED, output: managerOutput(context) });
  },
);

/** Whether a resident agent is between turns (its `idle` state). */
function isIdle(actor: AnyActorRef): boolean {
  const snapshot = actor.getSnapshot() as { status: string; value?: unknown };
  return snapshot.status === 'active' && snapshot.value === 'idle';
}

let residentMachine: typeof managerMachine | undefined;

/**
 * The resident variant of the manager machine (see above), derived once.
 *
 * @example
 * const actor = createActor(residentManagerMachine(), { input });
 * actor.start(); actor.send({ type: 'start' }); // … RUN_ENDED, idle; then: actor.send({ type: 'run', input: next }); actor.send({ type: 'start' });
 */
export function residentManagerMachine(): typeof managerMachine {
  if (residentMachine === undefined) {
    // The machine's config is plain data (state configs, action and guard references): read as such.
    const config = managerMachine.config as unknown as { states: Record<string, StateConfig> };
    const states: Record<string, StateConfig> = {};
    for (const [key, state] of Object.entries(config.states)) {
      if (key === 'idle') states[key] = { ...state, on: { ...state.on, run: { actions: beginRun } } };
      else if (state.type === 'final') {
        const { type: _final, ...rest } = state;
        states[key] = { ...rest, always: { target: 'idle', actions: endRun } };
      } else states[key] = state;
    }
    residentMachine = createMachine({ ...config, states } as never, managerMachine.implementations as never) as unknown as typeof managerMachine;
  }
  return residentMachine;
}
