import { AgentchartError } from '@agentchart/core';

/** Why `serveAgUi` refused an input: a stable code for each mistake a client can make. */
export type AgUiErrorCode =
  | 'AG_UI_INPUT_INVALID'
  | 'AG_UI_THREAD_BUSY'
  | 'AG_UI_INTERRUPT_PENDING'
  | 'AG_UI_NO_PENDING_INTERRUPT'
  | 'AG_UI_RESUME_INVALID'
  | 'AG_UI_RUN_FAILED';

/**
 * An input `serveAgUi` refused, or a run that failed; the stream ends with a
 * `RUN_ERROR` carrying `code` and the message, which says what to send instead.
 */
export class AgUiError extends AgentchartError {
  declare readonly code: AgUiErrorCode;

  constructor(code: AgUiErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
    this.name = 'AgUiError';
  }
}
