import { AgentchartError } from '@agentchart/core';

/**
 * A trace file that cannot be read: `TRACE_INVALID` (a line is not a trace
 * line; `details.line` says which) or `TRACE_VERSION_UNSUPPORTED` (written by
 * a newer agentchart).
 */
export class TraceFormatError extends AgentchartError {
  constructor(code: 'TRACE_INVALID' | 'TRACE_VERSION_UNSUPPORTED', message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
