import { toErrorInfo } from '@agentchart/core/internal';
import { TERMINATE } from './chatMember.js';
import { IneligibleSpeakerError } from './groupChatErrors.js';
import type { SelectSpeaker } from './groupChatTypes.js';
import { type ManagerContext, type SelectionDecision, selectionState } from './managerContext.js';
import { isNonEmpty, randomPick, roundRobinAfter } from './selectionMethods.js';

/** The outcome of one selection step, with the state it changes. */
export interface SelectionStep {
  eligible: string[];
  decision: SelectionDecision;
  randomState: number;
}

/**
 * Who speaks next, in order of precedence: a handoff the last speaker made
 * with a tool; the last speaker's afterWork; then the selection method,
 * narrowed to the names the transitions statechart allows. (Context
 * conditions are checked when the chosen speaker's turn begins.)
 */
export function decideNextSpeaker(context: ManagerContext): SelectionStep {
  const { runtime, lastSpeaker } = context;
  const eligible = runtime.graph.eligibleAfter(lastSpeaker);
  const step = (decision: SelectionDecision, randomState = context.randomState): SelectionStep => ({ eligible, decision, randomState });

  if (context.handoff !== undefined) return step({ kind: 'speaker', speaker: context.handoff, by: 'handoff' });
  const afterWork = lastSpeaker === undefined ? 'manager' : (runtime.members.get(lastSpeaker)?.afterWork ?? 'manager');
  if (afterWork === TERMINATE) return step({ kind: 'end', reason: 'handoff-terminate' });
  if (afterWork === 'user') {
    const human = [...runtime.members.values()].find((member) => member.kind === 'human');
    return step(human === undefined ? { kind: 'end', reason: 'returned-to-user' } : { kind: 'speaker', speaker: human.name, by: 'after-work' });
  }
  if (afterWork !== 'manager') return step({ kind: 'speaker', speaker: afterWork, by: 'after-work' });

  if (!isNonEmpty(eligible)) return step({ kind: 'end', reason: 'no-eligible-speaker' });
  const { selection } = runtime;
  switch (selection.method) {
    case 'round_robin':
      return step({ kind: 'speaker', speaker: roundRobinAfter(runtime.participants, lastSpeaker, eligible), by: 'round_robin' });
    case 'random': {
      const pick = randomPick(eligible, context.randomState);
      return step({ kind: 'speaker', speaker: pick.speaker, by: 'random' }, pick.state);
    }
    case 'manual':
      return step({ kind: 'manual' });
    case 'auto':
      return step(eligible.length === 1 ? { kind: 'speaker', speaker: eligible[0], by: 'auto' } : { kind: 'auto' });
    case 'function':
      return step(callSelectionFunction(selection.select, context, eligible));
  }
}

function callSelectionFunction(select: SelectSpeaker, context: ManagerContext, eligible: string[]): SelectionDecision {
  let choice: string;
  try {
    choice = select({ ...selectionState(context), eligible });
  } catch (error) {
    return { kind: 'end', reason: 'error', error: toErrorInfo(error) };
  }
  if (choice === TERMINATE) return { kind: 'end', reason: 'selector-terminate' };
  if (!eligible.includes(choice)) return { kind: 'end', reason: 'error', error: toErrorInfo(new IneligibleSpeakerError(choice, eligible)) };
  return { kind: 'speaker', speaker: choice, by: 'function' };
}
