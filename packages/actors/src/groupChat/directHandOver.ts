import type { RunResult } from '../agent/run/runResult.js';
import type { AgentTurnSetup } from './chatMembers.js';
import { chatBudgetSpent, countTurn } from './chatTokenBudget.js';
import { decideNextSpeaker } from './decideNextSpeaker.js';
import { viewFor } from './chatViews.js';
import { type ManagerContext, type SelectionDecision, selected } from './managerContext.js';
import { type TurnOutcome, type TurnReview, reviewTurn, turnsPassedTo } from './reviewTurn.js';

/**
 * A direct agent turn's end, when the next turn is one too
 * (docs/performance.md, "Chat turns without an agent actor" and "Runs of
 * direct turns"): the turn is recorded, the next speaker decided and that
 * turn begun by the run of direct turns itself (`DirectTurnRun`), without a
 * macrostep of the manager. The plan is what `recordTurn`, `selecting` and
 * `speaking.routing` would compute, in their order; it holds only when none
 * of their other branches would fire: the chat goes on, the decision names
 * an agent that takes a direct turn, and that agent has no context
 * condition. Chats that call user code while deciding (a `terminate`
 * predicate, a selection function) never take it, so a plan that does not
 * hold leaves nothing behind and the manager decides again the long way.
 */
export interface DirectHandOver {
  /** The finished turn as `recordTurn` records it. */
  review: TurnReview;
  outcome: TurnOutcome;
  /** The manager's context with the turn recorded (`recordTurn`'s update, the spend counted). */
  after: ManagerContext;
  /** `decide`'s selection. */
  eligible: string[];
  decision: Extract<SelectionDecision, { kind: 'speaker' }>;
  randomState: number;
  /** The next speaker's turn setup. */
  turn: AgentTurnSetup;
}

/**
 * The hand-over after a direct turn that ended with `result`, or `undefined`
 * when the manager takes the long way (see `DirectHandOver`). `outcomeOf` is
 * how the manager reads an agent's turn from its run result.
 *
 * @example
 * const plan = directHandOver(context, result, agentTurnOutcome);
 */
export function directHandOver(
  context: ManagerContext,
  result: RunResult,
  outcomeOf: (context: ManagerContext, result: RunResult) => TurnOutcome,
): DirectHandOver | undefined {
  const { runtime } = context;
  if (runtime.isTerminationMessage !== undefined || runtime.selection.method === 'function' || context.speaker === undefined) return undefined;
  const outcome = outcomeOf(context, result);
  const review = reviewTurn(context, context.speaker, outcome);
  if (review.update.reason !== undefined) return undefined;
  const after = { ...context };
  const { messages, turns, rounds, lastSpeaker, handoff, reason, error } = review.update;
  after.messages = messages;
  after.turns = turns;
  after.rounds = rounds;
  after.lastSpeaker = lastSpeaker;
  after.handoff = handoff;
  after.reason = reason;
  after.error = error;
  after.spend = countTurn(context.spend, outcome);
  const next = nextDirectTurn(after);
  return next === undefined ? undefined : { review, outcome, after, ...next };
}

/**
 * The manager's context once `plan` is carried out: what `recordTurn`,
 * `decide` and `turnStart` would assign, in one new object.
 *
 * @example
 * const next = contextAfterHandOver(plan);
 */
export function contextAfterHandOver(plan: DirectHandOver): ManagerContext {
  const { after, eligible, decision, randomState } = plan;
  const next = decision.speaker;
  // Property by property on one copy (what `decide`, `selected` and `turnStart` set): no second spread.
  const context = { ...after };
  context.selection = { eligible, decision, rejected: [] };
  context.randomState = randomState;
  context.resumeWaiting = undefined;
  Object.assign(context, selected(next));
  context.turns = turnsPassedTo(next, after.turns);
  context.view = viewFor(next, after.messages, context.turns, after.runtime.views);
  return context;
}

/**
 * Whether the chat ends with the direct turn that ended with `event.output`
 * for one of the reasons `selecting` checks before it decides (the turn ended
 * it, the rounds are used up, the token budget is spent): the manager then
 * records it and goes straight to `terminated`. Chats with a `terminate`
 * predicate take the long way (recording the turn calls it).
 *
 * @example
 * chatEndsAfterDirectTurn(context, event, agentTurnOutcome);
 */
export function chatEndsAfterDirectTurn(
  context: ManagerContext,
  event: { output: RunResult },
  outcomeOf: (context: ManagerContext, result: RunResult) => TurnOutcome,
): boolean {
  const { runtime } = context;
  if (runtime.isTerminationMessage !== undefined || context.speaker === undefined) return false;
  const outcome = outcomeOf(context, event.output);
  const review = reviewTurn(context, context.speaker, outcome);
  if (review.update.reason !== undefined || review.update.rounds >= runtime.maxRounds) return true;
  return chatBudgetSpent({ run: context.run, spend: countTurn(context.spend, outcome) });
}

/** A chat's first turn, when it is a direct agent turn (see `nextDirectTurn`). */
export type FirstDirectTurn = Pick<DirectHandOver, 'eligible' | 'decision' | 'randomState' | 'turn'>;

const firstTurns = new WeakMap<object, FirstDirectTurn | null>();

/**
 * What `selecting` and `speaking.routing` decide when a new run starts, when
 * the first speaker takes a direct agent turn (`undefined` otherwise: the
 * run takes the long way). Computed once per start event, for its guard and its action.
 *
 * @example
 * const first = firstDirectTurn(context, event);
 */
export function firstDirectTurn(context: ManagerContext, event: object): FirstDirectTurn | undefined {
  let first = firstTurns.get(event);
  if (first === undefined) {
    const { runtime } = context;
    const decides = context.resumeWaiting === undefined && runtime.isTerminationMessage === undefined && runtime.selection.method !== 'function';
    first = (decides ? nextDirectTurn(context) : undefined) ?? null;
    firstTurns.set(event, first);
  }
  return first ?? undefined;
}

/**
 * `decide` on `context`, when the chat goes on, the decision names an agent
 * that takes a direct turn, and that agent has no context condition.
 */
function nextDirectTurn(context: ManagerContext): FirstDirectTurn | undefined {
  const { runtime } = context;
  if (context.reason !== undefined || context.rounds >= runtime.maxRounds || chatBudgetSpent(context)) return undefined;
  const { eligible, decision, randomState } = decideNextSpeaker(context);
  if (decision.kind !== 'speaker') return undefined;
  const member = runtime.members.get(decision.speaker);
  if (member?.kind !== 'agent' || member.contextConditions.length > 0) return undefined;
  const { turn } = member;
  if (!turn.direct || turn.unusable !== undefined || context.run.inspected || context.run.checkpoints !== undefined) return undefined;
  return { eligible, decision, randomState, turn };
}
