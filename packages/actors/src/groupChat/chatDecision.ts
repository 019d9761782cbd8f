import { chatBudgetSpent } from './chatTokenBudget.js';
import { decideNextSpeaker } from './decideNextSpeaker.js';
import { type ManagerContext, selected } from './managerContext.js';

/**
 * The manager's `decide` update after a turn (or at the start): the chat
 * ends if the turn ended it or the rounds or the token budget are used up;
 * otherwise the next speaker is decided, and a decision that names a speaker
 * or an end is applied in the same update.
 *
 * @example
 * const update = decisionUpdate(context); // { reason: 'max-rounds' } after the last round
 */
export function decisionUpdate(context: ManagerContext): Partial<ManagerContext> {
  if (context.reason !== undefined) return {};
  if (context.rounds >= context.runtime.maxRounds) return { reason: 'max-rounds' as const };
  if (chatBudgetSpent(context)) return { reason: 'token-budget' as const };
  const { eligible, decision, randomState } = decideNextSpeaker(context);
  const update: Partial<ManagerContext> = { selection: { eligible, decision, rejected: [] }, randomState, resumeWaiting: undefined };
  // Written into the update, not spread into a new literal (a second spread takes V8's slow path).
  if (decision.kind === 'speaker') return Object.assign(update, selected(decision.speaker));
  if (decision.kind === 'end') {
    update.reason = decision.reason;
    update.error = decision.error;
  }
  return update;
}
