import type { Message as AgUiMessage } from '@ag-ui/core';
import type { Message } from '@agentchart/core';
import { AgUiError } from './agUiError.js';

/** A client's history as agentchart messages, with the AG-UI id each one came with. */
export interface ConvertedHistory {
  messages: Message[];
  ids: string[];
}

/**
 * Converts the `messages` of a `RunAgentInput` (already checked against the
 * AG-UI schema) into an agentchart transcript: developer and system messages
 * become system messages, text parts of user and tool content are joined,
 * assistant tool calls keep their ids and parsed arguments; activity and
 * reasoning messages are display-only and left out. Non-text content and a
 * tool message answering no earlier call are refused (`AG_UI_INPUT_INVALID`).
 *
 * @example
 * convertHistory([{ id: 'u1', role: 'user', content: 'Hi' }]).messages; // [{ role: 'user', content: 'Hi' }]
 */
export function convertHistory(input: readonly AgUiMessage[]): ConvertedHistory {
  const messages: Message[] = [];
  const ids: string[] = [];
  const toolNames = new Map<string, string>();
  for (const [index, message] of input.entries()) {
    const where = `messages[${index}] (id ${JSON.stringify(message.id)})`;
    switch (message.role) {
      case 'developer':
      case 'system':
        messages.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        const content = textOf(message.content, where);
        messages.push(message.name === undefined ? { role: 'user', content } : { role: 'user', content, name: message.name });
        break;
      }
      case 'assistant': {
        const toolCalls = (message.toolCalls ?? []).map((call) => {
          toolNames.set(call.id, call.function.name);
          const parsed = parseArguments(call.function.arguments);
          return parsed.ok
            ? { id: call.id, name: call.function.name, arguments: parsed.value }
            : { id: call.id, name: call.function.name, malformedArguments: call.function.arguments };
        });
        messages.push({
          role: 'assistant',
          content: message.content ?? '',
          ...(message.name === undefined ? {} : { name: message.name }),
          ...(toolCalls.length === 0 ? {} : { toolCalls }),
        });
        break;
      }
      case 'tool': {
        const toolName = toolNames.get(message.toolCallId);
        if (toolName === undefined) {
          throw new AgUiError('AG_UI_INPUT_INVALID', `${where} answers tool call "${message.toolCallId}", which no earlier assistant message made.`, {
            toolCallId: message.toolCallId,
          });
        }
        const content = message.error ?? textOf(message.content, where);
        messages.push({ role: 'tool', toolCallId: message.toolCallId, toolName, content, ...(message.error === undefined ? {} : { isError: true }) });
        break;
      }
      default:
        continue; // activity and reasoning messages are for display
    }
    ids.push(message.id);
  }
  return { messages, ids };
}

function textOf(content: string | readonly { type: string; text?: string }[], where: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((part) => {
      if (part.type !== 'text' || typeof part.text !== 'string') {
        throw new AgUiError(
          'AG_UI_INPUT_INVALID',
          `${where} has ${part.type} content: agentchart takes text only; send the text, or leave the part out.`,
        );
      }
      return part.text;
    })
    .join('');
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
