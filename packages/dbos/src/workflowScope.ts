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
   * Called in the workflow right before every model step: returns what the
   * step runs beside its model call and waits for before its reply is
   * recorded — the events of the turns that ended since the last batch, and
   * the journal's results still being written. It never rejects: a failed
   * write stops the chat (`writeFailure` says why).
   */
  readonly beforeStep: () => () => Promise<void>;
  /** Why a write beside a step failed, once one did: the chat stops with it. */
  readonly writeFailure: () => unknown;
  /**
   * Takes a journal write that is not waited for here (a tool call's result):
   * the next model step, the next wait and the chat's end wait for it.
   */
  readonly writeLater: (write: Promise<unknown>) => void;
  /** A durable wait for a person's decision on an in-doubt call (one at a time). */
  readonly decideInDoubt: (entry: ToolCallJournalEntry, toolArguments: unknown) => Promise<InDoubtDecision>;
}

/** The scope of the chat workflow the current code runs in, if any. */
export const workflowScope = new AsyncLocalStorage<ChatWorkflowScope>();
