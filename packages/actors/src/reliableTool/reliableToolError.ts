import { AgentchartError } from '@agentchart/core';
import type { ReliableToolAttempt } from './reliableToolAttempt.js';

/**
 * Why a reliable-tool run failed.
 * - `RELIABLE_TOOL_EXHAUSTED`: `maxToolInvocations` attempts, none valid.
 * - `RELIABLE_TOOL_ABORTED`: the run's signal was aborted.
 * - `RELIABLE_TOOL_MODEL_FAILED`: the runner's or the validator's model failed (see `cause`).
 * - `RELIABLE_TOOL_REQUEST_INVALID`: the run's arguments were unusable; no model was called.
 */
export type ReliableToolErrorCode =
  | 'RELIABLE_TOOL_EXHAUSTED'
  | 'RELIABLE_TOOL_ABORTED'
  | 'RELIABLE_TOOL_MODEL_FAILED'
  | 'RELIABLE_TOOL_REQUEST_INVALID';

/**
 * A reliable-tool run that produced no validated result. `attempts` holds
 * every attempt in order: arguments, hypothesis, error, result value and
 * text, and the validator's verdict.
 *
 * @example
 * try { await lookup.run({ task: 'Find order 42' }) }
 * catch (e) { if (e instanceof ReliableToolError) console.log(e.code, e.attempts.length) }
 */
export class ReliableToolError extends AgentchartError {
  declare readonly code: ReliableToolErrorCode;

  constructor(
    code: ReliableToolErrorCode,
    message: string,
    readonly toolName: string,
    readonly attempts: readonly ReliableToolAttempt[],
    options?: { cause?: unknown },
  ) {
    super(code, message, { toolName, attempts }, options);
  }
}
