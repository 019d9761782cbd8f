import type { ToolInputAnswer } from '@agentchart/core';
import type { Observable } from 'rxjs';
import type { SharedStateHandle } from '../sharedState/sharedStateHandle.js';

/**
 * What every run handle has, an agent's (`AgentRun`) and a group chat's
 * (`GroupChatRun`): its events, its result, its shared state, abort, and the
 * decisions on tool calls that wait for a person. Code that only watches or
 * steers a run can take either.
 *
 * @example
 * async function finish<Event, Result>(run: RunHandle<Event, Result>): Promise<Result> {
 *   run.events$.subscribe((event) => console.log(event));
 *   return run.result;
 * }
 */
export interface RunHandle<Event, Result> {
  /** Every event of the run; the run starts on the next microtask, so subscribing right after it is created sees all. */
  readonly events$: Observable<Event>;
  /** Resolves when the run ends, whatever the reason (it rejects only when the runtime itself fails). */
  readonly result: Promise<Result>;
  /** Ends the run (reason `aborted`). */
  abort(): void;
  /**
   * The run's shared state: read it, observe `changes$`, or write it while
   * the run is going (writes before the run starts or after it ends throw).
   */
  readonly state: SharedStateHandle;
  /** Approves a tool call that waits for a person; throws `ApprovalError` when `id` is not pending. */
  approve(id: string): void;
  /** Rejects a tool call that waits for a person: the model gets "rejected by the user" (and the reason). */
  reject(id: string, reason?: string): void;
  /**
   * Answers a running call's question for a person (an `input.requested`
   * event: an MCP server's input request): `{ action: 'accept', content }`,
   * checked against the question's schema, or `{ action: 'decline' }` /
   * `{ action: 'cancel' }`. Throws `InputAnswerError` when `id` is not a
   * question of this run or the content does not fit (answer again).
   *
   * @example
   * run.events$.subscribe((event) => { if (event.type === 'input.requested') run.answer(event.id, { action: 'decline' }); });
   */
  answer(id: string, answer: ToolInputAnswer): void;
}
