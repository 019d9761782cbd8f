import { AgentchartError } from '@agentchart/core';

/** Why an A2A peer did not give what was asked. */
export type A2aErrorCode = 'A2A_REMOTE_FAILED' | 'A2A_REMOTE_CANCELED' | 'A2A_UNREACHABLE' | 'A2A_UNEXPECTED_REPLY';

/**
 * An A2A peer did not give what was asked: the remote task failed or was
 * canceled, its agent card could not be read, or it answered with something
 * that is not an A2A task. `details` names the remote URL (and the task and
 * its state, when there was one).
 */
export class A2aError extends AgentchartError {
  declare readonly code: A2aErrorCode;

  constructor(code: A2aErrorCode, message: string, details: { url: string; taskId?: string; state?: string }, options?: { cause?: unknown }) {
    super(code, message, details, options);
  }
}
