import type { ChatEvent } from '../participant/chatEvent.js';
import type { TurnOutcome } from '../participant/turnOutcome.js';
import { countTurn } from './chatTokenBudget.js';
import { decisionUpdate } from './chatDecision.js';
import type { ManagerContext } from './managerContext.js';
import { type NextState, nextState } from './nextTransitions.js';

import { type TurnReview, announceTurn, reviewTurn } from './reviewTurn.js';

/**
 * A turn's end, planned: the turn recorded (`reviewTurn`, its usage
 * counted), then the next speaker decided on that context
 * (`decisionUpdate`), and the state it leads to. The turn's guards read the
 * target and its one action writes the rest.
 */
export interface TurnEndPlan {
  readonly target: NextState;
  readonly speaker: string;
  readonly outcome: TurnOutcome;
  readonly review: TurnReview;
  /** The context once the turn is recorded (what a store's `turnEnded` checkpoint takes). */
  readonly recorded: ManagerContext;
  /** The context once the next speaker is decided too. */
  readonly next: ManagerContext;
}

function planTurnEnd(context: ManagerContext, speaker: string, outcome: TurnOutcome): TurnEndPlan {
  const review = reviewTurn(context, speaker, outcome);
  const recorded = updated(context, review.update);
  recorded.spend = countTurn(context.spend, outcome);
  const next = updated(recorded, decisionUpdate(recorded));
  return { target: nextState(next), speaker, outcome, review, recorded, next };
}

/**
 * A copy of `context` with `part` written into its own fields: its shape
 * stays the context's, where a literal with two spreads takes V8's slow path.
 */
function updated(context: ManagerContext, part: Partial<ManagerContext>): ManagerContext {
  const copy = { ...context };
  for (const key in part) (copy as unknown as Record<string, unknown>)[key] = part[key as keyof ManagerContext];
  return copy;
}

/**
 * The plan of the turn-ending event being taken: its guards and its action
 * read the same one (one slot: they run one after the other on the same
 * event and context, and the action empties it).
 */
const planned: { event: object | undefined; context: ManagerContext | undefined; plan: TurnEndPlan | undefined } = {
  event: undefined,
  context: undefined,
  plan: undefined,
};

/**
 * The plan of `event`, which ends `speaker`'s turn with `outcome` (made
 * once per event and context; `outcome` is read only then).
 *
 * @example
 * turnEndPlan(context, event, 'writer', () => ({ messages })).target; // 'agent'
 */
export function turnEndPlan(context: ManagerContext, event: object, speaker: string, outcome: () => TurnOutcome): TurnEndPlan {
  if (planned.event === event && planned.context === context) return planned.plan as TurnEndPlan;
  const plan = planTurnEnd(context, speaker, outcome());
  planned.event = event;
  planned.context = context;
  planned.plan = plan;
  return plan;
}

/**
 * Writes a turn's end through XState's `enqueue`: the turn's events, the
 * store's checkpoint of the recorded turn, then the decided context.
 *
 * @example
 * endTurn: enqueueActions(({ context, event, enqueue }) => writeTurnEnd(takeTurnEnd(context, event), context, enqueue)),
 */
export function writeTurnEnd(
  plan: TurnEndPlan,
  context: ManagerContext,
  enqueue: { assign(next: () => ManagerContext): void; emit(event: ChatEvent): void },
): void {
  planned.event = planned.context = planned.plan = undefined;
  context.run.checkpoints?.turnEnded(plan.recorded);
  announceTurn((event) => enqueue.emit(event), context.run.chatId, plan.speaker, plan.review, plan.outcome);
  const { next } = plan;
  enqueue.assign(() => next);
}
