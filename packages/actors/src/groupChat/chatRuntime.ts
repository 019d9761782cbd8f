import type { ChatModel, Message, PriceTable, TokenBudget } from '@agentchart/core';
import type { ToolSourceAgent } from '../agent/tools/agentToolSources.js';
import type { ChatMember } from './chatMember.js';
import type { ViewMode } from './chatViews.js';
import type { SpeakerGraph } from './compileTransitions.js';
import type { SelectSpeaker, SelectionState } from './groupChatTypes.js';

/** The selection method, normalized. */
export type SelectionMethod =
  | { method: 'round_robin' }
  | { method: 'random'; seed: number | undefined }
  | { method: 'manual' }
  | { method: 'auto'; model: ChatModel; maxRetries: number; instructions: string | undefined }
  | { method: 'function'; select: SelectSpeaker };

/**
 * The parts of a chat that are code, not data: participants, the compiled
 * transitions, the selection method, the termination predicate. Built once
 * by `createGroupChat` and shared by its runs; never persisted.
 */
export interface ChatRuntime {
  /** The chat's `name` option, shown to run observers (the live view's heading). */
  readonly name: string | undefined;
  readonly members: ReadonlyMap<string, ChatMember>;
  /** Participant names, in round-robin order. */
  readonly participants: readonly string[];
  readonly graph: SpeakerGraph;
  readonly selection: SelectionMethod;
  readonly maxRounds: number;
  readonly isTerminationMessage: ((message: Message, state: SelectionState) => boolean) | undefined;
  readonly views: ViewMode;
  /** Every handoff tool name of every agent (to recover turns from saved messages). */
  readonly handoffToolNames: ReadonlySet<string>;
  /** The chat's `maxTokens` (a run can override it). */
  readonly tokenBudget: TokenBudget | undefined;
  /** The chat's `prices`, used for every agent turn (over the agent's own). */
  readonly prices: PriceTable | undefined;
  /** The agents with tool sources, by participant name: loaded when a run starts, their list changes followed into turns. */
  readonly toolSourceAgents: ReadonlyMap<string, ToolSourceAgent>;
}
