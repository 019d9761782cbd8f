import type { Message } from '@agentchart/core';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { ChatTurn } from '../participant/chatWaiting.js';
import type { TurnStore } from '../participant/participantProtocol.js';
import type { SharedStateSlot } from '../sharedState/sharedStateSlot.js';

/**
 * What a checkpoint reads of the manager's context (a `ManagerContext` is
 * one): the transcript, the selection, the speaker, the run's id and shared
 * state. The hooks take any context that has these (the manager's, or one
 * it is about to assign).
 */
export interface CheckpointedChat {
  readonly run: { readonly chatId: string; readonly sharedState: SharedStateSlot };
  readonly messages: Message[];
  readonly turns: ChatTurn[];
  readonly rounds: number;
  readonly lastSpeaker: string | undefined;
  readonly randomState: number;
  readonly speaker: string | undefined;
  readonly selection: { readonly eligible: string[] };
}

/**
 * The group-chat manager's checkpoint hooks: set (`ManagerInput.checkpoints`)
 * only for a chat kept in a store (`chat.run(task, { store })`), never
 * otherwise. Each is called synchronously with the context as the manager
 * left it; it copies what it keeps and never throws.
 */
export interface ChatCheckpoints {
  /** Gives the hooks the manager's current context (read when a speaking agent checkpoints a step). */
  bind(context: () => CheckpointedChat): void;
  /** The speaking agent's runtime for its turn, with the chat's journal and the agent's step checkpoints. */
  speakerRuntime(runtime: AgentRuntime, speaker: string): AgentRuntime;
  /** Where the turn of `speaker`, a nested chat or a custom participant, checkpoints itself and journals its tools. */
  delegatedTurn(speaker: string): TurnStore;
  /** A speaker was decided and a new turn begins (an agent's run has not called the model yet, a delegated turn has not started). */
  turnBegins<Context extends CheckpointedChat>(context: Context): void;
  /** A turn was recorded: the next speaker is decided next (or the chat ends). */
  turnEnded<Context extends CheckpointedChat>(context: Context): void;
  /** The chat waits for a person's turn (`context.speaker`). */
  waitingForHuman<Context extends CheckpointedChat>(context: Context): void;
  /** The chat waits for a manual speaker choice. */
  waitingForChoice<Context extends CheckpointedChat>(context: Context): void;
  /** Resolves once every checkpoint taken so far is stored: an agent's `approval.requested` is announced then. */
  written?(): Promise<void>;
}
