import type { ManagerContext } from './managerContext.js';

/**
 * Where the manager goes once the next speaker is decided: the chat's end,
 * the decided speaker's turn (by its kind; `routing` when a context
 * condition of the speaker holds), a person's choice, or the `auto`
 * selector's model.
 */
export type NextState = 'terminated' | 'routing' | 'agent' | 'human' | 'chat' | 'custom' | 'awaitingChoice' | 'askingModel';

/**
 * The state a decided context leads to (the order of `selecting`'s
 * transitions): read by `selecting` after the start and by a turn's end.
 *
 * @example
 * nextState(context); // 'agent': the decided speaker is an agent
 */
export function nextState(context: ManagerContext): NextState {
  if (context.reason !== undefined) return 'terminated';
  const { decision } = context.selection;
  if (decision?.kind === 'speaker') {
    if (contextConditionTarget(context) !== undefined) return 'routing';
    const kind = context.speaker === undefined ? undefined : context.runtime.members.get(context.speaker)?.kind;
    return kind === 'human' || kind === 'chat' || kind === 'custom' ? kind : 'agent';
  }
  return decision?.kind === 'manual' ? 'awaitingChoice' : 'askingModel';
}

/**
 * Where the current speaker's first holding context condition leads, if any.
 *
 * @example
 * contextConditionTarget(context); // 'billing': the speaker's condition on the shared state holds
 */
export function contextConditionTarget(context: ManagerContext): string | undefined {
  if (context.speaker === undefined || context.redirects >= context.runtime.participants.length) return undefined;
  const member = context.runtime.members.get(context.speaker);
  return member?.contextConditions.find(({ when }) => when(context.run.sharedState.values()))?.to;
}

/** What a decision's transition does on the way to each state: a decided speaker is announced, and a person's or a delegated turn set up. */
const nextActions = {
  terminated: [],
  routing: ['announceDecision'],
  agent: ['announceDecision'],
  human: ['announceDecision', 'beginHumanTurn'],
  chat: ['announceDecision', 'beginTurn'],
  custom: ['announceDecision', 'beginTurn'],
  awaitingChoice: [],
  askingModel: [],
} as const;

const nextTargets = {
  terminated: '#groupChat.terminated',
  routing: '#groupChat.speaking.routing',
  agent: '#groupChat.speaking.agent',
  human: '#groupChat.speaking.human',
  chat: '#groupChat.speaking.chat',
  custom: '#groupChat.speaking.custom',
  awaitingChoice: '#groupChat.awaitingChoice',
  askingModel: '#groupChat.askingModel',
} as const;

/**
 * The transitions of a decision, one per state it may lead to (`nextState`),
 * each guarded by `guard` for that state.
 */
export function nextTransitions<Guard>(guard: (to: NextState) => Guard) {
  return (Object.keys(nextTargets) as NextState[]).map((to) => ({ guard: guard(to), target: nextTargets[to], actions: [...nextActions[to]] }));
}

/**
 * The transitions of an event that ends the speaker's turn: the turn is
 * recorded and the next speaker decided in one action (`endTurn`), and the
 * manager goes where the decision leads, the next turn's state entered
 * anew when it is the same kind of turn.
 */
export function turnEndTransitions() {
  return nextTransitions((to) => ({ type: 'turnLeadsTo' as const, params: { to } })).map((transition) => ({
    ...transition,
    reenter: true,
    // `endTurn` announces the decided speaker itself (one action less per turn).
    actions: ['endTurn' as const, ...transition.actions.filter((action) => action !== 'announceDecision')],
  }));
}

/**
 * Whether `next` is a turn's state: a decided speaker's turn, announced on the way.
 *
 * @example
 * speaksNext('agent'); // true
 */
export function speaksNext(next: NextState): boolean {
  return (nextActions[next] as readonly string[]).includes('announceDecision');
}
