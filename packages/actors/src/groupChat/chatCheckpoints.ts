import type { AgentRuntime } from '../agent/machine/agentRuntime.js';
import type { TurnStore } from '../participant/participantProtocol.js';
import type { ManagerContext } from './managerContext.js';

/**
 * The group-chat manager's checkpoint hooks: set (`ManagerInput.checkpoints`)
 * only for a chat kept in a store (`chat.run(task, { store })`), never
 * otherwise. Each is called synchronously with the context as the manager
 * left it; it copies what it keeps and never throws.
 */
export interface ChatCheckpoints {
  /** Gives the hooks the manager's current context (read when a speaking agent checkpoints a step). */
  bind(context: () => ManagerContext): void;
  /** The speaking agent's runtime for its turn, with the chat's journal and the agent's step checkpoints. */
  speakerRuntime(runtime: AgentRuntime, speaker: string): AgentRuntime;
  /** Where the turn of `speaker`, a nested chat or a custom participant, checkpoints itself and journals its tools. */
  delegatedTurn(speaker: string): TurnStore;
  /** A speaker was decided and a new turn begins (an agent's run has not called the model yet, a delegated turn has not started). */
  turnBegins(context: ManagerContext): void;
  /** A turn was recorded: the next speaker is decided next (or the chat ends). */
  turnEnded(context: ManagerContext): void;
  /** The chat waits for a person's turn (`context.speaker`). */
  waitingForHuman(context: ManagerContext): void;
  /** The chat waits for a manual speaker choice. */
  waitingForChoice(context: ManagerContext): void;
  /** Resolves once every checkpoint taken so far is stored: an agent's `approval.requested` is announced then. */
  written?(): Promise<void>;
}
