import type { FunctionMiddleware, Message, TokenBudgetOption, ToolCallJournalEntry } from '@agentchart/core';
import type { AgentConfig } from '../agent/agentTypes.js';
import type { ToolSourceAgent } from '../agent/tools/agentToolSources.js';
import type { ChatEvent } from './chatEvent.js';
import type { ChatWaiting, PersistedDelegatedWaiting, StoredParticipantProgress } from './chatWaiting.js';
import type { TurnOutcome } from './turnOutcome.js';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { Residence } from './residence.js';

/**
 * The one way a group chat reaches its participants (internal): every kind of
 * participant — an agent, a person, a nested group chat, a participant of the
 * user's own — is, to the chat, a `ParticipantProtocol`. A chat made by
 * `createGroupChat` gives its own under this key; an agent made by
 * `createAgent` is reached through its internals (`AGENT_INTERNALS`, below
 * this contract); a person (`humanAgent`), a group chat written by hand and a
 * `CustomParticipant` are adapted by shape (see `participantProtocol`).
 */
export const PARTICIPANT_PROTOCOL: unique symbol = Symbol('agentchart.participantProtocol');

/** An object that gives its participant protocol (a group chat made by `createGroupChat`). */
export interface ProvidesParticipantProtocol {
  [PARTICIPANT_PROTOCOL](): ParticipantProtocol;
}

export type ParticipantProtocol = AgentProtocol | HumanProtocol | DelegatedProtocol;

/**
 * An agent: the chat runs the agent's own machine in its turns, in the
 * agent's resident actor (the manager's child `agent:<name>`, see
 * `residentAgents.ts`), from the agent's configuration. Its turn is
 * persisted as the agent's run (`run.persist()` format) while it waits for
 * approval, and resumed from it.
 */
export interface AgentProtocol {
  readonly kind: 'agent';
  readonly name: string;
  /** The agent's configuration; throws `ConfigurationError` while it cannot have one (tool sources not loaded yet). */
  config(): AgentConfig;
  /** An agent with tool sources: what a chat loads before its first turn and follows while it runs. */
  readonly toolSources: ToolSourceAgent | undefined;
}

/** A person: the turn is a wait for `run.say`, persisted as that wait. */
export interface HumanProtocol {
  readonly kind: 'human';
  readonly name: string;
  readonly description: string | undefined;
}

/**
 * A participant whose turn runs outside the manager's own states and is
 * reached through a `DelegatedTurn`: a nested group chat (`kind: 'chat'`) or
 * a participant of the user's own (`kind: 'custom'`).
 */
export interface DelegatedProtocol {
  readonly kind: 'chat' | 'custom';
  readonly name: string;
  readonly description: string | undefined;
  /** Starts a turn on `view`. */
  start(view: Message[], context: TurnContext): DelegatedTurn;
  /**
   * Continues a turn persisted by `DelegatedTurn.persist` (or, with
   * `context.store`, checkpointed through `TurnStore.checkpoint`);
   * `undefined` when its turns cannot be resumed.
   */
  readonly resume: ((persisted: DelegatedTurnState, context: TurnContext) => DelegatedTurn) | undefined;
  /**
   * Checks a persisted turn before the chat resumes it (everything the
   * resume would check), returning the copy to resume from; throws
   * `ChatSnapshotError` (or `RunSnapshotError` for an agent's run inside).
   * `checkpoint`: it is a store checkpoint (`TurnStore.checkpoint`), which
   * may stand at a step that is not a wait.
   */
  checkPersisted(persisted: DelegatedTurnState, options?: { checkpoint?: boolean }): DelegatedTurnState;
  /** What a turn persisted as `persisted` waits for (the chat's `waiting()` right after `resume`), without `within`; `undefined` for a store checkpoint that is not a wait. */
  persistedWaiting(persisted: DelegatedTurnState): ChatWaiting | undefined;
  /**
   * Whether a chat with this participant can be kept in a store, and if not
   * why (a group chat written by hand cannot checkpoint inside its turns nor
   * journal its tools in the outer chat's store).
   */
  readonly storable: true | { reason: string };
  /**
   * A store checkpoint of a turn resumed with the journal of the chat: calls
   * of the agent speaking inside (at any depth) that a crash left in doubt
   * become approval requests (see `withInDoubtRequests`). Absent when the
   * participant runs no journaled tools (a custom participant).
   */
  readonly withInDoubtRequests?: (persisted: DelegatedTurnState, journal: readonly ToolCallJournalEntry[]) => TurnInDoubt;
}

/**
 * A delegated turn as persisted: a wait inside it (`run.snapshot()`, the
 * public `PersistedDelegatedWaiting`), or, in a store checkpoint, a custom
 * participant's turn stored while it does not wait.
 */
export type DelegatedTurnState = PersistedDelegatedWaiting | StoredParticipantProgress;

/** A checkpointed turn with its in-doubt calls made approval requests; `runId` is the run they belong to (their journal ids are `<runId>/<callId>`). */
export interface TurnInDoubt {
  persisted: DelegatedTurnState;
  inDoubt: ToolCallJournalEntry[];
  runId?: string;
}

/**
 * What a delegated turn of a chat kept in a store is given (`TurnContext.store`):
 * where it checkpoints itself and the journal its tools go through.
 */
export interface TurnStore {
  /**
   * Writes a checkpoint of the outer chat with this turn at `persisted`
   * (called synchronously at the step: the chat's part is frozen now;
   * `persisted` is built when the checkpoint is written, from what was
   * frozen). `waiting` when the turn waits for a person.
   */
  checkpoint(status: 'running' | 'waiting', persisted: () => DelegatedTurnState): void;
  /** Records each tool call of the turn's agents in the outer chat's journal, as `<turn run id>/<call id>`: at most once across crashes. */
  readonly journal: FunctionMiddleware;
  /** Resolves once every checkpoint taken so far is stored (a nested chat announces its agents' waits then). */
  written?(): Promise<void>;
}

/** What a delegated turn is given by the chat it is taken in. */
export interface TurnContext {
  /** Aborted when the turn is stopped (the chat aborted). */
  signal: AbortSignal;
  /** The outer run's `inspect` option (a nested chat's actors are seen by it too). */
  inspect: InspectOption | undefined;
  /** Puts the turn's own events on the chat's bus (a nested chat's, as `nested.event`). */
  forward(event: ChatEvent): void;
  /** What is left of the chat's token budget. */
  maxTokens: TokenBudgetOption | undefined;
  /** Set only when the chat is kept in a store: where the turn checkpoints and journals. */
  store?: TurnStore | undefined;
  /**
   * What lives with the participant's resident actor for the chat run, from
   * turn to turn (a nested chat made by `createGroupChat` keeps its resident
   * manager there), stopped when the chat run ends.
   */
  residence?: Residence | undefined;
}

/**
 * A delegated turn in progress: what the chat's handle reaches while the
 * participant speaks (its waits, a person's answers, persisting it) and
 * what the manager records when it ends or is cut short.
 */
export interface DelegatedTurn {
  /** The turn's outcome once it ends (its messages, error, usage). */
  readonly outcome: Promise<TurnOutcome>;
  /** What the turn waits for now, if anything. */
  waiting(): ChatWaiting | undefined;
  say(text: string, options: { as?: string }): void;
  approve(id: string): void;
  reject(id: string, reason: string | undefined): void;
  select(speaker: string): void;
  /** The turn as JSON, while it waits: the `waiting` of the chat's snapshot. */
  persist(): PersistedDelegatedWaiting;
  /** The turn's messages so far (a partial turn when the chat is aborted), `undefined` when it has said nothing. */
  soFar(): Message[] | undefined;
}

/** Whether `value` gives its participant protocol. */
export function providesParticipantProtocol(value: object): value is ProvidesParticipantProtocol {
  return typeof (value as Partial<ProvidesParticipantProtocol>)[PARTICIPANT_PROTOCOL] === 'function';
}
