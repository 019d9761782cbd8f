import type { ErrorInfo, Message, StateRecord, StopReason, Usage } from '@agentchart/core';
import type { AgentContext, ToolCallRecord } from '../machine/agentContext.js';
import { runCost } from '../machine/runTokenBudget.js';

/** What a finished run returns. */
export interface RunResult {
  runId: string;
  agent: string;
  /** The conversation: the input and every message the run added (no system prompt). */
  messages: Message[];
  /**
   * The text of the last assistant message ('' if there is none); for a run
   * ended by a middleware (`endRun`), the ending call's result text.
   */
  text: string;
  /** Every tool call the run answered, in order, with what the model saw. */
  toolCalls: ToolCallRecord[];
  usage: Usage;
  /** What `usage` cost, when the run was given a price table (`prices`) that prices its model. */
  cost?: number;
  /** The shared state's values when the run ended. */
  state: StateRecord;
  /** Model calls made. */
  steps: number;
  stopReason: StopReason;
  /** Set when `stopReason` is `error`. */
  error?: ErrorInfo;
  /** Set when `stopReason` is `ended-by-middleware`: the call whose middleware ended the run. */
  endedBy?: { callId: string; toolName: string };
}

/** Builds the result from the machine's final context. */
export function toRunResult(context: AgentContext): RunResult {
  const result: RunResult = {
    runId: context.runId,
    agent: context.runtime.agentName,
    messages: context.messages,
    text: lastAssistantText(context.messages),
    toolCalls: context.toolCalls,
    usage: context.usage,
    state: { ...context.sharedState.values() },
    steps: context.step,
    stopReason: context.stopReason ?? 'completed',
  };
  if (context.error) result.error = context.error;
  const cost = runCost(context);
  if (cost !== undefined) result.cost = cost;
  if (context.endedBy !== undefined) {
    const { callId } = context.endedBy;
    result.endedBy = context.endedBy;
    result.text = context.toolCalls.find((record) => record.call.id === callId)?.content ?? '';
  }
  return result;
}

function lastAssistantText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'assistant') return message.content;
  }
  return '';
}
