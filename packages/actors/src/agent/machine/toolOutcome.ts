import type { ErrorInfo } from '@agentchart/core';

/** The outcome of one tool call, as the tool-batch actor reports it. */
export interface ToolOutcome {
  content: string;
  isError: boolean;
  value?: unknown;
  error?: ErrorInfo;
  /** A function middleware called `endRun()` for this call. */
  endsRun?: true;
  /** Set when the tool rules refused the call (it did not run): the refusing rule family. */
  refusedBy?: string;
}
