import type { AnyTool } from './defineTool.js';
import type { ToolContext } from './toolContext.js';

/** Which call a middleware is looking at. */
export interface FunctionInvocationMetadata {
  readonly callId: string;
  readonly toolName: string;
  readonly agentName: string;
  readonly runId: string;
  /** The model call (1-based) whose reply requested this call. */
  readonly step: number;
}

/**
 * What a function middleware sees of one tool invocation.
 *
 * Set `result` without calling `next()` to answer for the tool (it never
 * runs); read or replace `result` after `await next()`; call `endRun()` to end
 * the run once the current batch has finished.
 */
export interface FunctionInvocationContext {
  /** The tool about to run. */
  readonly tool: AnyTool;
  /** The call's arguments, already parsed and validated by the tool's schema; replace them to change what the tool receives. */
  arguments: Record<string, unknown>;
  /** The tool's return value once `next()` has resolved, or what a middleware set. The model sees it as text. */
  result: unknown;
  readonly metadata: FunctionInvocationMetadata;
  /** The context the tool receives (live tool list, signal, ...). */
  readonly toolContext: ToolContext;
  /**
   * Ends the run after the current batch: no further model call. This call's
   * result (or `result`, when given) becomes the run's result text.
   */
  endRun(result?: unknown): void;
  /** True once `endRun()` was called. */
  readonly endsRun: boolean;
}

/**
 * A function middleware: runs around every tool invocation of an agent (or
 * of one run). Agent-level middleware runs outermost, then run-level
 * middleware, each in the order given.
 *
 * @example
 * const readBeforeWrite: FunctionMiddleware = async (ctx, next) => {
 *   if (ctx.tool.name === 'update_record' && ctx.arguments.record_id !== lastFetched) {
 *     ctx.result = `Error: fetch record '${ctx.arguments.record_id}' before updating it.`;
 *     return; // the tool never runs; the model sees the text above
 *   }
 *   await next();
 * };
 */
export type FunctionMiddleware = (ctx: FunctionInvocationContext, next: () => Promise<void>) => void | Promise<void>;
