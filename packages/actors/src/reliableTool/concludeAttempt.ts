import type { ErrorInfo, Message, ToolMessage } from '@agentchart/core';
import { attemptFeedback, extraCallNotice } from './prompts.js';
import type { AttemptDraft } from './reliableRunContext.js';
import type { AttemptOutcome, ReliableToolAttempt } from './reliableToolAttempt.js';

/** The record of a finished attempt, built from its draft. */
export function attemptRecord(draft: AttemptDraft, outcome: AttemptOutcome, failureReason?: string, interruption?: ErrorInfo): ReliableToolAttempt {
  const record: ReliableToolAttempt = { attempt: draft.attempt, outcome, runnerText: draft.reply?.text ?? '' };
  if (draft.runnerCall) {
    record.args = draft.runnerCall.args;
    record.hypothesis = draft.runnerCall.hypothesis;
  }
  if (draft.toolRun?.ok) {
    record.value = draft.toolRun.value;
    record.text = draft.toolRun.text;
  } else if (draft.toolRun) {
    record.error = draft.toolRun.error;
  }
  if (interruption) record.error = interruption;
  if (draft.validation) record.validation = draft.validation;
  if (failureReason !== undefined) record.failureReason = failureReason;
  return record;
}

/** Why a failed attempt failed, in words the runner can act on. */
export function failureReasonOf(draft: AttemptDraft, toolName: string): string {
  if (draft.toolRun && !draft.toolRun.ok) {
    const { error } = draft.toolRun;
    // A ToolError's message is written for the model, as in an agent.
    return error.code === 'TOOL_ERROR' ? error.message : `"${toolName}" failed: ${error.message}`;
  }
  if (draft.validation) return `the validator rejected the result: ${draft.validation.justification}`;
  return draft.noCallReason ?? `the reply had no valid call of "${toolName}".`;
}

/**
 * What a failed attempt adds to the runner's conversation: its reply, an
 * answer to each call in it (the result or error of the first, a notice for
 * any other), and the feedback that names the failure.
 */
export function failedAttemptMessages(draft: AttemptDraft, toolName: string, maxAttempts: number, failureReason: string): Message[] {
  const reply = draft.reply;
  const messages: Message[] = [];
  if (reply) {
    messages.push(
      reply.toolCalls.length > 0
        ? { role: 'assistant', content: reply.text, toolCalls: reply.toolCalls }
        : { role: 'assistant', content: reply.text },
    );
    reply.toolCalls.forEach((call, index) => {
      const answer = index === 0 ? firstCallAnswer(draft, failureReason) : { content: extraCallNotice(toolName), isError: true };
      const message: ToolMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: answer.content };
      if (answer.isError) message.isError = true;
      messages.push(message);
    });
  }
  messages.push({ role: 'user', content: attemptFeedback(toolName, draft.attempt, maxAttempts, failureReason) });
  return messages;
}

function firstCallAnswer(draft: AttemptDraft, failureReason: string): { content: string; isError: boolean } {
  if (draft.toolRun?.ok) return { content: draft.toolRun.text, isError: false };
  return { content: failureReason, isError: true };
}
