import type { Message, ToolSpec } from '@agentchart/core';
import type { Tool as OllamaTool } from 'ollama';

/** A message in `/api/chat`'s shape (api/types.go `Message`, as of Ollama 0.12.10+). */
export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  thinking?: string;
  tool_calls?: Array<{ id?: string; function: { index?: number; name: string; arguments: Record<string, unknown> } }>;
  tool_name?: string;
  tool_call_id?: string;
}

/**
 * The transcript in Ollama's `/api/chat` shape: an assistant message keeps
 * its `thinking` (Ollama asks clients to send it back with tool results;
 * gpt-oss and qwen3 reason worse without it) and its tool calls, each with
 * its id and index and arguments as an object; each tool result goes back as
 * a `tool` message with `tool_name` and `tool_call_id`, so two calls of one
 * tool are told apart by id, not by order. Ollama has no `name` on messages,
 * so a named user message (another group-chat participant) says who speaks
 * in its text: `alice: Hello`.
 *
 * @example
 * toOllamaMessages([msg.tool('call_1', 'add', '5')]); // [{ role: 'tool', content: '5', tool_name: 'add', tool_call_id: 'call_1' }]
 */
export function toOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  return messages.map((message): OllamaMessage => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.name === undefined ? message.content : `${message.name}: ${message.content}` };
      case 'assistant': {
        const out: OllamaMessage = { role: 'assistant', content: message.content };
        if (message.reasoning) out.thinking = message.reasoning;
        if (message.toolCalls && message.toolCalls.length > 0) {
          out.tool_calls = message.toolCalls.map((call, index) => ({
            id: call.id,
            function: { index, name: call.name, arguments: isRecord(call.arguments) ? call.arguments : {} },
          }));
        }
        return out;
      }
      case 'tool':
        return { role: 'tool', content: message.content, tool_name: message.toolName, tool_call_id: message.toolCallId };
    }
  });
}

/** Tools in Ollama's (OpenAI-like) function shape. */
export function toOllamaTools(tools: readonly ToolSpec[]): OllamaTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters as OllamaTool['function']['parameters'] },
  }));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
