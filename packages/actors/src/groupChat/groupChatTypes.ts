import type { ChatModel, ErrorInfo, Message, RunStore, TokenBudgetOption, Usage } from '@agentchart/core';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { TerminationReason } from '../participant/chatEvent.js';
import type { ChatTurn } from '../participant/chatWaiting.js';

/** Shared state as the chat's predicates and selector functions read it. */
export type SharedStateValues = Readonly<Record<string, unknown>>;

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
