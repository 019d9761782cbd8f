import type { ErrorInfo, Message } from '@agentchart/core';
import type { Observable } from 'rxjs';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { SharedStateRef } from '../sharedState/sharedStateMachine.js';
import type { ChatRuntime } from './chatRuntime.js';
import type { ResumedSpeaker } from './speakerResume.js';
import type { ChatEvent, ChatTurn, PersistableWaiting, SelectionSource, SelectionState, TerminationReason } from './groupChatTypes.js';

/** What the selection step decided. */
export type SelectionDecision =
  | { kind: 'speaker'; speaker: string; by: SelectionSource }
  | { kind: 'end'; reason: TerminationReason; error?: ErrorInfo }
  | { kind: 'manual' }
  | { kind: 'auto' };

/** The manager machine's context. Everything but `runtime` and `publish` is plain data. */
export interface ManagerContext {
  runtime: ChatRuntime;
  /** Puts an event on the chat's bus (used to bridge the speakers' own events out). */
  publish: (event: ChatEvent) => void;
  /** The control events on the bus (a person's `say` and `select`), bridged into the manager. */
  controls$: Observable<Extract<ChatEvent, { type: 'human.said' | 'speaker.chosen' | 'approval.decide' }>>;
  /** The run's `inspect` option, handed on to a nested chat's run (its own actor system). */
  inspect: InspectOption | undefined;
  chatId: string;
  messages: Message[];
  turns: ChatTurn[];
  rounds: number;
  lastSpeaker: string | undefined;
  /** The chat's shared-state actor (systemId `sharedState`), one per chat; agents' tools read and write it. */
  sharedState: SharedStateRef;
  randomState: number;
  /** Who may speak now (set while selecting). */
  eligible: string[];
  decision: SelectionDecision | undefined;
  /** The speaker of the turn being taken (or about to be). */
  speaker: string | undefined;
  /** The messages the current speaker was shown. */
  view: Message[];
  /** Context-condition hops taken before the current turn. */
  redirects: number;
  /** The handoff the last turn made with a tool. */
  handoff: string | undefined;
  /** Answers of the `auto` selector rejected in this selection. */
  rejected: string[];
  reason: TerminationReason | undefined;
  error: ErrorInfo | undefined;
  /** Set when resuming a persisted chat that waited for a person (a turn, a choice, or a tool approval of its speaker). */
  resumeWaiting: PersistableWaiting | ResumedSpeaker | undefined;
}

/** What selection functions and termination predicates see. */
export function selectionState(context: ManagerContext): SelectionState {
  return {
    messages: context.messages,
    lastSpeaker: context.lastSpeaker,
    eligible: context.eligible,
    rounds: context.rounds,
    sharedState: stateValues(context),
  };
}

/** The shared state's current values. */
export function stateValues(context: Pick<ManagerContext, 'sharedState'>): Record<string, unknown> {
  return context.sharedState.getSnapshot().context.values;
}
