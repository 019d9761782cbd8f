import type { RunResult } from '../agent/run/runResult.js';
import { chatBudgetSpent, countTurn } from './chatTokenBudget.js';
import type { ChatSpend, ManagerContext } from './managerContext.js';
import { type TurnOutcome, type TurnReview, reviewTurn } from './reviewTurn.js';

/**
 * A direct agent turn that ends the chat, as the manager records it
 * (docs/performance.md, "Runs of direct turns"): the turn ended it, or the
 * rounds or the token budget are used up — the reasons `selecting` checks
 * before it decides. The manager then records it, decides the end and goes
 * straight to `terminated` in one transition, with one update.
 */
export interface LastDirectTurn {
  /** The manager's context the turn ended in (the run of direct turns' `contextNow`). */
  context: ManagerContext;
  outcome: TurnOutcome;
  /** The turn as `recordTurn` records it. */
  review: TurnReview;
  /** The chat's spend with the turn counted. */
  spend: ChatSpend;
}

/** By `direct.turn.done` event: computed by the transition's guard, read again by its action. */
const lastTurns = new WeakMap<object, { context: ManagerContext; turn: LastDirectTurn | undefined }>();

/**
 * The chat's last turn, when the direct turn that ended with `event.output`
 * ends the chat (`undefined` when it goes on, or when it has a `terminate`
 * predicate: recording the turn calls it, so such chats take the long way).
 * Computed once per event and context, for the guard and the action of the
 * same transition.
 *
 * @example
 * const last = lastDirectTurn(context.run.directTurn.contextNow(context), event, agentTurnOutcome);
 */
export function lastDirectTurn(
  context: ManagerContext,
  event: { output: RunResult },
  outcomeOf: (context: ManagerContext, result: RunResult) => TurnOutcome,
): LastDirectTurn | undefined {
  let known = lastTurns.get(event);
  if (known?.context !== context) {
    known = { context, turn: endingTurn(context, event.output, outcomeOf) };
    lastTurns.set(event, known);
  }
  return known.turn;
}

function endingTurn(
  context: ManagerContext,
  result: RunResult,
  outcomeOf: (context: ManagerContext, result: RunResult) => TurnOutcome,
): LastDirectTurn | undefined {
  const { runtime } = context;
  if (runtime.isTerminationMessage !== undefined || context.speaker === undefined) return undefined;
  const outcome = outcomeOf(context, result);
  const review = reviewTurn(context, context.speaker, outcome);
  const spend = countTurn(context.spend, outcome);
  const ends = review.update.reason !== undefined || review.update.rounds >= runtime.maxRounds || chatBudgetSpent({ run: context.run, spend });
  return ends ? { context, outcome, review, spend } : undefined;
}
