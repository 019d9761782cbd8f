import type { ErrorInfo, Message, TokenBudget, Usage } from '@agentchart/core';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { SharedStateSlot } from '../sharedState/sharedStateSlot.js';
import type { ChatResume } from './turnPersistence.js';
import type { ChatCheckpoints } from './chatCheckpoints.js';
import type { ChatMember } from './chatMember.js';
import type { ChatRuntime } from './chatRuntime.js';
import type { CurrentTurn } from './delegatedTurn.js';
import type { ResidentAgents } from './residentAgent.js';
import type { SelectionState } from './groupChatTypes.js';
import type { ChatEvent, SelectionSource, TerminationReason } from '../participant/chatEvent.js';
import type { ChatTurn } from '../participant/chatWaiting.js';

/** What the selection step decided. */
export type SelectionDecision =
  | { kind: 'speaker'; speaker: string; by: SelectionSource }
  | { kind: 'end'; reason: TerminationReason; error?: ErrorInfo }
  | { kind: 'manual' }
  | { kind: 'auto' };

/** The parts of a run fixed when it starts: its id, its bus, its shared-state actor. */
export interface ManagerRun {
  chatId: string;
  /** Gives each agent turn's run its id. */
  newRunId: () => string;
  /** Puts an event on the chat's bus (used to bridge the speakers' own events out). */
  publish: (event: ChatEvent) => void;
  /** The run's `inspect` option, handed on to a nested chat's run (its own actor system). */
  inspect: InspectOption | undefined;
  /** The chat's shared state (systemId `sharedState`, its actor made when first needed), one per chat; agents' tools read and write it. */
  sharedState: SharedStateSlot;
  /** The run's token budget (the chat's `maxTokens`, or the run's). */
  tokenBudget: TokenBudget | undefined;
  /** Set only for a chat kept in a store (see `chatCheckpoints.ts`). */
  checkpoints: ChatCheckpoints | undefined;
  /** Whether the manager is a nested chat's resident one (`ManagerInput.resident`): its runs end back in `idle`. */
  resident: boolean;
  /** The turn a nested chat or a custom participant takes now, if any: the handle reaches it here. */
  currentTurn: CurrentTurn;
  /** The run's resident agents: each agent's actor, from its first turn on the actor path to the chat's end (see `residentAgents.ts`). */
  agents: ResidentAgents;
  /**
   * Where the resident agents' events go: the run's chat id and bus. A
   * resident manager's next run (`ManagerInput.resident`) points the same
   * object at its own, so the agents it carries over reach the new run.
   */
  bridge: RunBridge;
  /** The run's resident participants (nested chats, custom participants) by name: spawned at their first turn as `participant:<name>` (see `residentParticipants.ts`). */
  participants: Set<string>;
}

/** The chat id and bus a run's resident agents put their events on (`ManagerRun.bridge`). */
export interface RunBridge {
  chatId: string;
  publish: (event: ChatEvent) => void;
}

/** The selection in progress: who may speak, what was decided, the `auto` selector's rejected answers. */
export interface SelectionProgress {
  eligible: string[];
  decision: SelectionDecision | undefined;
  rejected: string[];
}

/**
 * The manager machine's context. `runtime` and `run` never change during a
 * run; the rest is plain data. (XState copies the context on every `assign`,
 * so it is kept to a few top-level fields: the copy stays cheap and the
 * object keeps V8's fast property layout.)
 */
export interface ManagerContext {
  runtime: ChatRuntime;
  run: ManagerRun;
  messages: Message[];
  turns: ChatTurn[];
  rounds: number;
  lastSpeaker: string | undefined;
  randomState: number;
  /** Set while selecting. */
  selection: SelectionProgress;
  /** The speaker of the turn being taken (or about to be). */
  speaker: string | undefined;
  /** The messages the current speaker was shown. */
  view: Message[];
  /** Context-condition hops taken before the current turn. */
  redirects: number;
  /** The handoff the last turn made with a tool. */
  handoff: string | undefined;
  reason: TerminationReason | undefined;
  error: ErrorInfo | undefined;
  /** Set when a resumed chat starts: where it goes on, as the persisted turn's participant decided (`TurnPersistence`); cleared once taken. */
  resumeWaiting: ChatResume | undefined;
  /** What the turns of this run used so far (a resumed chat counts from the resume). */
  spend: ChatSpend;
}

/** A chat's tokens so far, and what they cost (for turns whose model has a price). */
export interface ChatSpend {
  usage: Usage;
  cost: number | undefined;
}

/** The context once `speaker` is chosen to speak next. */
export function selected(speaker: string): Pick<ManagerContext, 'speaker' | 'redirects' | 'handoff'> {
  return { speaker, redirects: 0, handoff: undefined };
}

/** What selection functions and termination predicates see. */
export function selectionState(context: ManagerContext): SelectionState {
  return {
    messages: context.messages,
    lastSpeaker: context.lastSpeaker,
    eligible: context.selection.eligible,
    rounds: context.rounds,
    sharedState: stateValues(context),
  };
}

/** The shared state's current values. */
export function stateValues(context: Pick<ManagerContext, 'run'>): Record<string, unknown> {
  return context.run.sharedState.values();
}

/** A chat member of one kind (`agent`, `human` or `chat`), its fields narrowed to that kind. */
export type MemberOfKind<K extends ChatMember['kind']> = Extract<ChatMember, { kind: K }>;

/**
 * The speaker of the turn being taken. The manager enters a speaking state
 * only with a speaker chosen (selection, a handoff or a resume sets it first),
 * so inside one this is its name; elsewhere it throws, naming the state's bug.
 *
 * @example
 * const speaker = speakerOf(context); // 'researcher'
 */
export function speakerOf(context: Pick<ManagerContext, 'speaker'>): string {
  if (context.speaker === undefined) throw new Error('The group-chat manager has no speaker in a speaking state (a bug in agentchart).');
  return context.speaker;
}

/**
 * The member taking the current turn, checked to be of `kind` (the manager
 * routed the turn by that kind).
 *
 * @example
 * const { turn } = speakingMember(context, 'agent');
 */
export function speakingMember<K extends ChatMember['kind']>(context: Pick<ManagerContext, 'speaker' | 'runtime'>, kind: K): MemberOfKind<K> {
  const speaker = speakerOf(context);
  const member = context.runtime.members.get(speaker);
  if (member === undefined || !isKind(member, kind)) {
    throw new Error(`"${speaker}" takes a turn as a participant of kind ${kind}, which it is not (a bug in agentchart).`);
  }
  return member;
}

function isKind<K extends ChatMember['kind']>(member: ChatMember, kind: K): member is MemberOfKind<K> {
  return member.kind === kind;
}
