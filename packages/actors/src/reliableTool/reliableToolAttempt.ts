import type { ErrorInfo } from '@agentchart/core';
import type { ValidationResult } from './validationResult.js';

/**
 * How an attempt ended. Every outcome but `valid` counts against
 * `maxToolInvocations`; `interrupted` ends the run (abort or model failure).
 */
export type AttemptOutcome = 'valid' | 'invalid-result' | 'execution-error' | 'no-valid-call' | 'interrupted';

/** One attempt: a runner turn, at most one tool invocation, at most one validation. */
export interface ReliableToolAttempt {
  /** 1-based. */
  attempt: number;
  outcome: AttemptOutcome;
  /** What the runner wrote beside (or instead of) its call. */
  runnerText: string;
  /** The arguments the tool received (set when the runner made a valid call). */
  args?: Record<string, unknown>;
  /** Why the runner expected these arguments to work. */
  hypothesis?: string;
  /** The error the tool threw, or what interrupted the attempt. */
  error?: ErrorInfo;
  /** The tool's result value (unwrapped from `toolResult`). */
  value?: unknown;
  /** The result text the validator judged. */
  text?: string;
  /** The validator's verdict. */
  validation?: ValidationResult;
  /** Why the attempt failed, as the runner was told (unset when `valid`). */
  failureReason?: string;
}
