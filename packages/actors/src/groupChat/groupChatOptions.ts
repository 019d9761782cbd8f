import type { Message, PriceTable, TokenBudgetOption } from '@agentchart/core';
import type { Agent } from '../agent/agentTypes.js';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { CustomParticipant } from '../participant/customParticipant.js';
import type { GroupChatRun } from './groupChatRun.js';
import type { AfterWork, GroupChatRunOptions, Handoff, SpeakerSelection, SpeakerTransitions, TerminateCondition } from './groupChatTypes.js';
import type { HumanAgent } from './humanAgent.js';

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

/** A participant with its group-chat settings. */
export interface MemberOptions {
  agent: Participant;
  /** How the `auto` selector and other participants know it (default: the agent's instructions). */
  description?: string;
  handoffs?: readonly Handoff[];
  afterWork?: AfterWork;
}

export type GroupChatMember = Participant | MemberOptions;

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
