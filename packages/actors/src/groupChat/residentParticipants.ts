import { toErrorInfo } from '@agentchart/core/internal';
import { fromCallback } from 'xstate';
import { Residence } from '../participant/residence.js';
import { type DelegatedTurnInput, takeDelegatedTurn } from './delegatedTurn.js';
import type { TurnOutcome } from '../participant/turnOutcome.js';

/**
 * Resident participants (docs/group-chat.md, "Resident participants"): a
 * nested chat or a custom participant is, like an agent, one actor for the
 * whole chat run. The manager spawns it at the participant's first turn, as
 * its child `participant:<name>` (an actor of its `nestedChat` or
 * `participantTurn` logic, as the inspector names it); every turn of that
 * participant is a `turn` command to it (the turn's `DelegatedTurnInput`:
 * the view or the persisted wait to resume, the turn's context). The actor
 * takes the turn (`takeDelegatedTurn`) and reports its outcome, or its error
 * as a failed turn, to the manager (`participant.turn.done`). `turn.stop`
 * (sent when the manager leaves the turn before it ended: an abort) aborts
 * the turn's `signal`; the chat's end stops the actor, which aborts a turn
 * still going on. Each turn is given the actor's `Residence`
 * (`TurnContext.residence`): what the participant keeps from turn to turn —
 * a nested chat made by `createGroupChat` its resident manager
 * (`ResidentChat`) — stopped when the actor stops.
 *
 * The actor is a callback actor, not a machine: a turn is a command it runs
 * and a report it sends back, with no actor and no macrostep of its own per
 * turn.
 */

/** The command that begins a resident participant's turn. */
export interface ParticipantTurnCommand {
  type: 'turn';
  input: DelegatedTurnInput;
}

/** Stops the turn in progress, if any (its `signal` is aborted); the actor stays. */
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

/** What a resident participant is made with: its name (the `participant.turn.done` it sends names it). */
export interface ResidentParticipantInput {
  name: string;
}

/** The manager's child id of `name`'s resident participant. */
export const participantChildId = (name: string): string => `participant:${name}`;

/**
 * The logic of a delegated participant's resident actor (see above).
 *
 * @example
 * const ref = spawn(residentParticipant, { id: 'participant:team', input: { name: 'team' } });
 * ref.send({ type: 'turn', input }); // … participant.turn.done to the parent
 */
export const residentParticipant = fromCallback<ParticipantTurnCommand | ParticipantTurnStop, ResidentParticipantInput>(
  ({ input, receive, sendBack }) => {
    const residence = new Residence();
    /** The turn going on: aborting it aborts the turn. */
    let current: AbortController | undefined;
    const report = (controller: AbortController, outcome: TurnOutcome) => {
      // A turn stopped (or superseded) reports nothing: the manager has left it.
      if (current !== controller) return;
      current = undefined;
      sendBack({ type: 'participant.turn.done', speaker: input.name, outcome } satisfies ParticipantTurnDoneEvent);
    };
    receive((event) => {
      current?.abort();
      current = undefined;
      if (event.type === 'turn.stop') return;
      const controller = new AbortController();
      current = controller;
      const turn = { ...event.input, context: { ...event.input.context, residence } };
      takeDelegatedTurn(turn, controller.signal).then(
        (outcome) => report(controller, outcome),
        (error: unknown) => report(controller, { messages: [], error: toErrorInfo(error) }),
      );
    });
    return () => {
      current?.abort();
      current = undefined;
      residence.stop();
    };
  },
);
