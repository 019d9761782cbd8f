import type { ErrorInfo, Message, Usage } from '@agentchart/core';

/** What a finished turn brings: its messages, a handoff made with a tool, a failure. */
export interface TurnOutcome {
  messages: Message[];
  handoff?: string | undefined;
  error?: ErrorInfo | undefined;
  /** The tokens the turn used, and what they cost (when priced). */
  usage?: Usage | undefined;
  cost?: number | undefined;
}
