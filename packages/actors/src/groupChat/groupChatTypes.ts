import type { ChatModel, ErrorInfo, Message, PriceTable, RunStore, TokenBudgetOption, Usage } from '@agentchart/core';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { SharedStateHandle } from '../sharedState/sharedStateHandle.js';
import type { Agent } from '../agent/agentTypes.js';
import type { Observable } from 'rxjs';
import type { HumanAgent } from './humanAgent.js';
import type { CustomParticipant } from '../participant/customParticipant.js';
import type { RunHandle } from '../rootRun/runHandle.js';
import type { ChatEvent, TerminationReason } from '../participant/chatEvent.js';
import type { ChatTurn, ChatWaiting, GroupChatSnapshot } from '../participant/chatWaiting.js';

export type { ChatEvent, ChatEventOf, SelectionSource, TerminationReason } from '../participant/chatEvent.js';
export type {
  ChatTurn,
  ChatWaiting,
  GroupChatSnapshot,
  PersistableWaiting,
  PersistedApprovalWaiting,
  PersistedDelegatedWaiting,
  PersistedNestedWaiting,
  PersistedParticipantWaiting,
} from '../participant/chatWaiting.js';

/** Shared state as the chat's predicates and selector functions read it. */
export type SharedStateValues = Readonly<Record<string, unknown>>;

/** A group chat that takes part in another group chat as one participant. */
export interface NestedChatParticipant {
  readonly kind: 'group-chat';
  readonly name: string;
  readonly description: string | undefined;
  run(input: string | readonly Message[], options?: GroupChatRunOptions): GroupChatRun;
  /** Continues a run persisted with `run.snapshot()` (what lets an outer chat persist a wait inside this one). */
  resume?(snapshot: unknown, options?: Pick<GroupChatRunOptions, 'signal' | 'inspect'>): GroupChatRun;
}

/** Anything that can take a turn: an agent, a person, a whole group chat, or a participant of your own. */
export type Participant = Agent | HumanAgent | NestedChatParticipant | CustomParticipant;

/**
 * A handoff of one participant to another (or to `terminate`).
 * - without `when`: the agent's model sees a `transfer_to_<to>` tool (`terminate_chat` for
 *   `terminate`); calling it ends the agent's turn and makes `to` the next speaker.
 * - with `when`: a context condition on shared state, checked before the
 *   participant's turn starts (no model call); when it holds, `to` speaks instead.
 */
export interface Handoff {
  to: string;
  /** Tells the model when to hand off (the transfer tool's description). */
  description?: string;
  when?: (state: SharedStateValues) => boolean;
}

/**
 * What happens after a participant's turn when no handoff was made:
 * a participant's name (it speaks next), `terminate`, `user` (the chat's human
 * participant speaks next; without one the chat ends with reason
 * `returned-to-user`), or `manager` (the selection method decides; the default).
 */
export type AfterWork = string;

/** A participant with its group-chat settings. */
export interface MemberOptions {
  agent: Participant;
  /** How the `auto` selector and other participants know it (default: the agent's instructions). */
  description?: string;
  handoffs?: readonly Handoff[];
  afterWork?: AfterWork;
}

export type GroupChatMember = Participant | MemberOptions;

/** What a selection function sees. */
export interface SelectionState {
  readonly messages: readonly Message[];
  readonly lastSpeaker: string | undefined;
  /** Who may speak now (transitions and `allowRepeatSpeaker` already applied). */
  readonly eligible: readonly string[];
  readonly rounds: number;
  readonly sharedState: SharedStateValues;
}

/** A selection function: returns an eligible participant's name, or `terminate`. */
export type SelectSpeaker = (state: SelectionState) => string;

/** How the next speaker is chosen when no handoff decides it. */
export type SpeakerSelection =
  | 'round_robin'
  | 'random'
  | 'manual'
  | { method: 'random'; seed?: number }
  | {
      method: 'auto';
      /** The model that picks; its reply is constrained to the eligible names. */
      model: ChatModel;
      /** Re-asks after an ineligible answer (default 2); then a deterministic fallback. */
      maxRetries?: number;
      /** Replaces the default system prompt of the selector. */
      instructions?: string;
    }
  | SelectSpeaker;

/** `{ allowed: { planner: ['researcher'] } }` or `{ disallowed: { critic: ['critic'] } }`. */
export type SpeakerTransitions =
  | { allowed: Readonly<Record<string, readonly string[]>>; disallowed?: never }
  | { disallowed: Readonly<Record<string, readonly string[]>>; allowed?: never };

/**
 * What ends a chat on a reply: a keyword that closes the reply as a sentence
 * of its own ("All good. TERMINATE"; not "NOT TERMINATE"), several keywords,
 * or a predicate over the message and the chat's state for anything else.
 */
export type TerminateCondition = string | readonly string[] | ((message: Message, state: SelectionState) => boolean);

export interface GroupChatOptions {
  /** The participants, in round-robin order. */
  agents: readonly GroupChatMember[];
  speakerSelection: SpeakerSelection;
  transitions?: SpeakerTransitions;
  /** May the last speaker be picked again (default true); a list allows it for those only. */
  allowRepeatSpeaker?: boolean | readonly string[];
  /** Who may speak first (default: the first participant when `transitions` is given, else anyone). */
  initialSpeaker?: string | readonly string[];
  /** Turns after which the chat ends with reason `max-rounds`. */
  maxRounds: number;
  /** A keyword, keywords or a predicate that ends the chat on a reply (reason `terminate-message`); see `TerminateCondition`. */
  terminate?: TerminateCondition;
  /** The initial shared state. */
  sharedState?: Record<string, unknown>;
  /** `broadcast` (default): everyone sees every reply. `isolated`: each sees the task, its own turns and the replies passed to it. */
  views?: 'broadcast' | 'isolated';
  /** Its name as a participant of another chat (default `group_chat`). */
  name?: string;
  description?: string;
  /** An XState inspector for every run's actor system (the manager, its agents, the shared state). */
  inspect?: InspectOption;
  /**
   * Tokens a run of the chat may use (input + output, or each), counted from
   * the usage its agents' models report: once reached, the chat ends with
   * reason `token-budget`; the speaking agent gets what is left as its own
   * budget, so its turn ends after the step that spends it.
   */
  maxTokens?: TokenBudgetOption;
  /** Prices per million tokens by model name, for every agent turn (over the agents' own): the result reports `cost`. */
  prices?: PriceTable;
  /**
   * A secret (at least 16 bytes) that signs the chat's checkpoints in a
   * store (HMAC-SHA256); resuming refuses an unsigned or edited one
   * (`SNAPSHOT_TAMPERED`). The agents' runs are signed by their own `snapshotKey`.
   */
  snapshotKey?: SnapshotKey;
}

export interface GroupChatResult {
  chatId: string;
  /** The task and every message of every turn, in order (assistant messages carry the speaker's `name`). */
  messages: Message[];
  turns: ChatTurn[];
  sharedState: Record<string, unknown>;
  lastSpeaker: string | undefined;
  reason: TerminationReason;
  /** Turns taken (including restored ones). */
  rounds: number;
  error?: ErrorInfo;
  /** Tokens the agents' models reported during this run (nested chats included; a resumed run counts from the resume). */
  usage: Usage;
  /** What that usage cost, when a price table priced some turn's model. */
  cost?: number;
}

export interface GroupChatRunOptions {
  signal?: AbortSignal;
  /** Shared state to start from (overrides the chat's `sharedState`), e.g. when resuming from saved messages. */
  sharedState?: Record<string, unknown>;
  /** An XState inspector for this run, beside the chat's own. */
  inspect?: InspectOption;
  /** Overrides the chat's `maxTokens` for this run. */
  maxTokens?: TokenBudgetOption;
  /**
   * The chat's id (default: a new random one). When given, the chat is
   * deterministic for a replay: its agents' runs get the ids
   * `<chatId>/run-1`, `<chatId>/run-2`, … in the order they start (so their
   * tool calls' `ctx.idempotencyKey` is the same when the chat is run again),
   * e.g. by a durable workflow engine that replays it.
   */
  chatId?: string;
  /** The random speaker selection's starting state (default: the chat's `seed`, else random). */
  randomSeed?: number;
  /**
   * Keeps the chat in a store (`@agentchart/store/sqlite` or `/postgres`):
   * created under this process's lease, checkpointed after each speaker
   * decision, each step of the speaking agent, each wait and the end, every
   * agent's tool calls through the chat's journal; `chat.resume(chatId, { store })`
   * continues it after a crash (docs/durability.md).
   */
  store?: RunStore;
  /** Who holds the chat's lease (default `<hostname>:<pid>`). Only with `store`. */
  owner?: string;
  /** How long the lease lasts unless renewed, in ms (default 30 000). Only with `store`. */
  leaseMs?: number;
  /**
   * Input messages attributed (`name`) to someone who is not a participant:
   * `'refuse'` (default) throws `UnknownSpeakerError` naming them; `'context'`
   * keeps them as context that starts no turn (what a nested chat does with the
   * outer chat's speakers).
   */
  unknownSpeakers?: 'refuse' | 'context';
}

/** A running (or finished) group chat. */
export interface GroupChatRun extends RunHandle<ChatEvent, GroupChatResult> {
  readonly chatId: string;
  /** Every chat event; the chat starts on the next microtask, so subscribing right after `run()` sees all. */
  readonly events$: Observable<ChatEvent>;
  readonly result: Promise<GroupChatResult>;
  /** Ends the chat with reason `aborted`. */
  abort(): void;
  /** The chat's shared state (one actor per chat): read it, observe `changes$`, write it while the chat runs. */
  readonly state: SharedStateHandle;
  /**
   * Gives the waiting human participant's turn. Throws `ChatNotWaitingError`
   * unless the chat waits for a person (for `as`, when given).
   */
  say(text: string, options?: { as?: string }): void;
  /**
   * Approves a tool call of the speaking agent that waits for approval (see
   * `waiting()`); once every pending call is decided, its batch runs.
   * Throws `ApprovalError` when `id` is not pending.
   */
  approve(id: string): void;
  /** Rejects a pending tool call of the speaking agent: its model is told so instead of a result. */
  reject(id: string, reason?: string): void;
  /** Picks the next speaker (manual selection): an eligible name or `terminate`. */
  select(speaker: string): void;
  /** What the chat waits for now, if anything (right after `resume`: the persisted wait). */
  waiting(): ChatWaiting | undefined;
  /**
   * The chat as plain JSON, while it waits for a person's turn, a manual
   * choice or a tool approval (right after `resume`, before the chat has
   * started: the snapshot it was resumed from); throws `ChatNotWaitingError` otherwise.
   */
  snapshot(): GroupChatSnapshot;
}
