import type { ChatModel, ChatRequest, Message } from '@agentchart/core';
import { fromPromise } from 'xstate';

/** What the selector model is asked, beside the transcript. */
export interface SelectorPrompt {
  participants: readonly { name: string; description: string }[];
  eligible: readonly string[];
  transcript: readonly Message[];
  /** Earlier answers in this selection that named nobody eligible. */
  rejected: readonly string[];
  instructions: string | undefined;
}

/**
 * The request that asks a model who speaks next. The reply is constrained by
 * a JSON schema whose `speaker` is an enum of exactly the eligible names
 * (Ollama `format`, OpenAI `json_schema`), and re-asks name the bad answer.
 *
 * @example
 * buildSelectorRequest({ participants, eligible: ['critic'], transcript, rejected: [], instructions: undefined });
 */
export function buildSelectorRequest(prompt: SelectorPrompt): ChatRequest {
  const roster = prompt.participants.map(({ name, description }) => `- ${name}: ${description || '(no description)'}`).join('\n');
  const system =
    prompt.instructions ?? `You coordinate a group chat. The participants are:\n${roster}\nRead the conversation and decide who speaks next.`;
  const choices = prompt.eligible.join(', ');
  const messages: Message[] = [{ role: 'system', content: system }, ...prompt.transcript];
  messages.push({ role: 'user', content: `Who speaks next? Answer with JSON {"speaker": "<name>"}, where <name> is one of: ${choices}.` });
  for (const answer of prompt.rejected) {
    messages.push({ role: 'assistant', content: answer });
    messages.push({
      role: 'user',
      content: `${JSON.stringify(answer)} does not name a participant who may speak now. Choose exactly one of: ${choices}.`,
    });
  }
  return {
    messages,
    tools: [],
    toolChoice: 'none',
    responseFormat: {
      type: 'json_schema',
      name: 'next_speaker',
      schema: {
        type: 'object',
        properties: { speaker: { type: 'string', enum: [...prompt.eligible] } },
        required: ['speaker'],
        additionalProperties: false,
      },
    },
  };
}

/**
 * The eligible name a selector's reply gives, or undefined. Accepts the JSON
 * the schema asks for, or a reply that is exactly one name; never searches
 * free text for names.
 *
 * @example
 * parseSelectorAnswer('{"speaker":"critic"}', ['critic']); // 'critic'
 */
export function parseSelectorAnswer(text: string, eligible: readonly string[]): string | undefined {
  const trimmed = text.trim();
  let answer: unknown = trimmed;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    answer = typeof parsed === 'object' && parsed !== null ? (parsed as { speaker?: unknown }).speaker : parsed;
  } catch {
    // not JSON: the reply may be the bare name
  }
  return typeof answer === 'string' && eligible.includes(answer) ? answer : undefined;
}

/** One call of the selector model as an actor; its output is the reply text. */
export const askSelectorActor = fromPromise<string, { model: ChatModel; request: ChatRequest }>(({ input, signal }) => {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    const subscription = input.model.stream({ ...input.request, signal }).subscribe({
      next: (event) => {
        if (event.type === 'text-delta') text += event.text;
      },
      error: reject,
      complete: () => resolve(text),
    });
    signal.addEventListener('abort', () => subscription.unsubscribe(), { once: true });
  });
});
