import type { Message } from '@agentchart/core';
import type { DelegatedProtocol, DelegatedTurn, DelegatedTurnState, TurnContext } from '../participant/participantProtocol.js';
import type { TurnOutcome } from '../participant/turnOutcome.js';

/** The delegated turn a chat run is in, if any: set while a nested chat or a custom participant speaks. */
export interface CurrentTurn {
  turn: DelegatedTurn | undefined;
}

export interface DelegatedTurnInput {
  participant: DelegatedProtocol;
  /** The speaker's view: what the turn runs on. */
  view: Message[];
  /** A persisted wait inside the turn to continue instead of a new turn on `view`. */
  resume: DelegatedTurnState | undefined;
  context: Omit<TurnContext, 'signal'>;
  /** Where the chat run's handle finds the turn while it runs (its waits, a person's answers, persisting it). */
  current: CurrentTurn;
}

/**
 * A turn a participant takes outside the manager's own states — a nested
 * chat's run, a custom participant's turn: it starts (or resumes) the turn
 * through the participant's protocol, makes it the run's current turn while
 * it runs, and resolves to its outcome. Aborting `signal` aborts the turn.
 * Its resident participant actor takes it (`residentParticipants.ts`).
 *
 * @example
 * const outcome = await takeDelegatedTurn(input, controller.signal);
 */
export async function takeDelegatedTurn(input: DelegatedTurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  const { participant, current } = input;
  const context: TurnContext = { ...input.context, signal };
  const turn =
    input.resume !== undefined && participant.resume !== undefined
      ? participant.resume(input.resume, context)
      : participant.start(input.view, context);
  current.turn = turn;
  try {
    return await turn.outcome;
  } finally {
    if (current.turn === turn) current.turn = undefined;
  }
}
