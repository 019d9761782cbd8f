import type { AssistantMessage } from '@agentchart/core';
import type { ReplyDraft } from './agentContext.js';

/** The transcript message for a finished model reply. */
export function assembleAssistantMessage(draft: ReplyDraft, agentName: string): AssistantMessage {
  const message: AssistantMessage = { role: 'assistant', content: draft.text, name: agentName };
  if (draft.reasoning !== '') message.reasoning = draft.reasoning;
  if (draft.toolCalls.length > 0) message.toolCalls = draft.toolCalls;
  return message;
}
