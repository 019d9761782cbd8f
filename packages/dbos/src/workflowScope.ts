import { AsyncLocalStorage } from 'node:async_hooks';
import type { RunLease, RunStore, ToolCallJournalEntry } from '@agentchart/core';

/** A decision on a tool call a crash left in doubt (started, no recorded result). */
export type InDoubtDecision = { kind: 'retry' } | { kind: 'record'; result: unknown } | { kind: 'skip'; reason: string | undefined };

/**
 * What the model and tool wrappers need from the chat workflow they run in.
 * One per running chat workflow, reached through `workflowScope` (an
 * AsyncLocalStorage), so one chat definition serves every chat of a worker.
 */
export interface ChatWorkflowScope {
  readonly chatId: string;
  readonly store: RunStore;
  /** The chat's current lease (renewed in the background). */
  readonly lease: () => RunLease;
  /** Stops the chat: its lease was taken over (another execution of the same workflow). */
  readonly onLeaseLost: (error: unknown) => void;
  /**
   * Called right before every DBOS step of the chat: writes the events so
   * far to the chat's stream. It takes its place in the workflow's history
   * when called, so the step may start before it resolves.
   */
  readonly beforeStep: () => Promise<void>;
  /** A durable wait for a person's decision on an in-doubt call (one at a time). */
  readonly decideInDoubt: (entry: ToolCallJournalEntry, toolArguments: unknown) => Promise<InDoubtDecision>;
}

/** The scope of the chat workflow the current code runs in, if any. */
export const workflowScope = new AsyncLocalStorage<ChatWorkflowScope>();
