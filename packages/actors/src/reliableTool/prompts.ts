import type { Message } from '@agentchart/core';
import { HYPOTHESIS_ARGUMENT } from './runnerCall.js';

/**
 * The text both models are shown. Kept in one file so that a reader sees
 * every prompt the reliable tool writes.
 */

/** The runner's system prompt. */
export function runnerSystemPrompt(toolName: string, runnerInstructions: string | undefined): string {
  return joinParagraphs([
    `You accomplish a task by calling the tool "${toolName}". Every reply of yours must be exactly one call of "${toolName}".`,
    `Choose the arguments from the task and the context you are given. In "${HYPOTHESIS_ARGUMENT}", say in one short sentence why these arguments should produce a result that satisfies the task.`,
    'If a previous attempt failed (an error, or a result the validator rejected), change the arguments to address the reason you were given.',
    runnerInstructions,
  ]);
}

/** The validator's system prompt: the base criteria plus the run's addition. */
export function validatorSystemPrompt(
  toolName: string,
  validationInstructions: string | undefined,
  validationPromptAddition: string | undefined,
): string {
  return joinParagraphs([
    `You validate the result of one call of the tool "${toolName}". Judge whether the result text satisfies the task and every criterion below. Judge only what the result says; do not assume anything it does not say.`,
    'Answer with a JSON object only: {"valid": true or false, "justification": "one or two sentences"}.',
    `Criteria:\n- The result accomplishes the task.${validationInstructions ? `\n${validationInstructions}` : ''}`,
    validationPromptAddition ? `Additional criteria for this task:\n${validationPromptAddition}` : undefined,
  ]);
}

/** The validator's request: the task, the call and the result to judge. */
export function validatorUserPrompt(task: string, toolName: string, args: Record<string, unknown>, resultText: string): string {
  return `Task: ${task}\n\nResult of ${toolName}(${JSON.stringify(args)}):\n${resultText}`;
}

/** Each ground-truth item as its own user message, numbered from 1. */
export function groundTruthMessages(groundTruth: readonly string[]): Message[] {
  return groundTruth.map((fact, index) => ({ role: 'user', content: `[[Provided Ground Truth ${index + 1}]]: ${fact}` }));
}

/** What the runner is told after a failed attempt. */
export function attemptFeedback(toolName: string, attempt: number, maxAttempts: number, reason: string): string {
  const next = attempt < maxAttempts ? `Call "${toolName}" again with arguments that address this.` : 'No attempts are left.';
  return `Attempt ${attempt} of ${maxAttempts} failed: ${reason}\n${next}`;
}

/** The tool message for a call the runner made beyond the first one of a reply. */
export function extraCallNotice(toolName: string): string {
  return `Not run: only the first call of a reply is run. Call "${toolName}" once per reply.`;
}

function joinParagraphs(parts: readonly (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part.trim() !== '').join('\n\n');
}
