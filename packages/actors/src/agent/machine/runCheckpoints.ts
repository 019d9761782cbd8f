import type { AgentContext } from './agentContext.js';

/**
 * The agent step's checkpoint hook: set on `AgentRuntime.checkpoints` only
 * for a run kept in a store (`agent.run(input, { store, runId })`), never
 * otherwise, so a run without a store pays nothing. Each method is called
 * synchronously from inside the step with the context as the step left it;
 * it must copy what it keeps (the step goes on changing its private copy)
 * and never throw.
 */
export interface RunCheckpoints {
  /** A model reply was taken: appended, and its calls formed into a batch (before screening), or none. */
  modelReply(context: AgentContext): void;
  /** A batch is about to run: screened, every approval request decided. */
  batchStart(context: AgentContext): void;
  /** A batch's results were appended to the transcript: the next model call comes next (or an ending). */
  batchEnd(context: AgentContext): void;
  /** The run waits for approval: `context.approvals` holds the requests. */
  waiting(context: AgentContext): void;
  /** Resolves once every checkpoint taken so far is stored: a wait's `approval.requested` is announced then. */
  written?(): Promise<void>;
}
