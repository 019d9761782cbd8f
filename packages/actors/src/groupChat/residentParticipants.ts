import { toErrorInfo } from '@agentchart/core/internal';
import { type EventObject, fromCallback, sendParent, setup } from 'xstate';
import { Residence } from '../participant/residence.js';
import { type DelegatedTurnInput, delegatedTurnActor } from './delegatedTurnActor.js';
import type { TurnOutcome } from './reviewTurn.js';

/**
 * Resident participants (docs/group-chat.md, "Resident participants"): a
 * nested chat or a custom participant is, like an agent, one actor for the
 * whole chat run. The manager spawns it at the participant's first turn, as
 * its child `participant:<name>`; every turn of that participant is a `turn`
 * command to it (the turn's `DelegatedTurnInput`: the view or the persisted
 * wait to resume, the turn's context). The actor takes the turn in its
 * `taking` state — the delegated turn, invoked as `nestedChat` or
 * `participantTurn` (what the inspector shows) — reports its outcome, or
 * its error as a failed turn, to the manager (`participant.turn.done`) and
 * goes back to `idle`. `turn.stop` (sent when the manager leaves the turn
 * before it ended: an abort) stops the turn, which aborts it (its `signal`);
 * the chat's end stops the actor. Each turn is given the actor's
 * `Residence` (`TurnContext.residence`): what the participant keeps from
 * turn to turn — a nested chat made by `createGroupChat` its resident
 * manager (`ResidentChat`) — stopped when the actor stops.
 */

/** The command that begins a resident participant's turn. */
export interface ParticipantTurnCommand {
  type: 'turn';
  input: DelegatedTurnInput;
}

/** Stops the turn in progress, if any (its `signal` is aborted); the actor stays, idle. */
export interface ParticipantTurnStop {
  type: 'turn.stop';
}

/** What a resident participant sends the manager when its turn ends: its outcome (a failed turn's error in it). */
export interface ParticipantTurnDoneEvent {
  type: 'participant.turn.done';
  /** The participant whose turn it was. */
  speaker: string;
  outcome: TurnOutcome;
}

/** What a resident participant is made with: its name (the trace labels its actor with it). */
export interface ResidentParticipantInput {
  name: string;
}

/** A resident participant's context: its name, and what its turns keep from turn to turn (`TurnContext.residence`). */
export interface ResidentParticipantContext {
  name: string;
  residence: Residence;
}

/** Lives as long as the resident participant: stopping it (the chat's end) stops what its residence keeps (a nested chat's resident manager). */
const residenceKeeper = fromCallback<EventObject, Residence>(
  ({ input }) =>
    () =>
      input.stop(),
);

/** The delegated turn's actor, as the inspector names it: a nested chat's turn, or a custom participant's. */
type DelegatedTurnSource = 'nestedChat' | 'participantTurn';

/** The manager's child id of `name`'s resident participant. */
export const participantChildId = (name: string): string => `participant:${name}`;

const residentSetup = setup({
  types: {
    context: {} as ResidentParticipantContext,
    input: {} as ResidentParticipantInput,
    events: {} as ParticipantTurnCommand | ParticipantTurnStop,
  },
  actors: { nestedChat: delegatedTurnActor, participantTurn: delegatedTurnActor, residence: residenceKeeper },
});

/**
 * The resident machine of a delegated participant whose turn is invoked as
 * `source` (see above).
 *
 * @example
 * const ref = spawn(residentParticipantMachine('nestedChat'), { id: 'participant:team', input: { name: 'team' } });
 * ref.send({ type: 'turn', input }); // … participant.turn.done to the parent, then idle
 */
function residentParticipantMachine(source: DelegatedTurnSource) {
  return residentSetup.createMachine({
    id: 'participant',
    context: ({ input }) => ({ name: input.name, residence: new Residence() }),
    invoke: { id: 'residence', src: 'residence', input: ({ context }) => context.residence },
    initial: 'idle',
    states: {
      idle: { on: { turn: 'taking' } },
      taking: {
        on: { 'turn.stop': 'idle' },
        invoke: {
          id: 'turn',
          src: source,
          input: ({ context, event }) => {
            if (event.type !== 'turn') throw new Error('A resident participant takes a turn only on a turn command (a bug in agentchart).');
            const { input } = event;
            return { ...input, context: { ...input.context, residence: context.residence } };
          },
          onDone: {
            target: 'idle',
            actions: sendParent(({ context, event }) => turnDone(context.name, event.output)),
          },
          onError: {
            target: 'idle',
            actions: sendParent(({ context, event }) => turnDone(context.name, { messages: [], error: toErrorInfo(event.error) })),
          },
        },
      },
    },
  });
}

function turnDone(speaker: string, outcome: TurnOutcome): ParticipantTurnDoneEvent {
  return { type: 'participant.turn.done', speaker, outcome };
}

/** A nested chat's resident: its turns are invoked as `nestedChat`. */
export const residentChatMachine = residentParticipantMachine('nestedChat');

/** A custom participant's resident: its turns are invoked as `participantTurn`. */
export const residentCustomMachine = residentParticipantMachine('participantTurn');
