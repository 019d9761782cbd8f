import type { Message, ToolSpec } from '@agentchart/core';
import type { Message as OllamaMessage, Tool as OllamaTool } from 'ollama';

/**
 * The transcript in Ollama's `/api/chat` shape: tool calls carry their
 * arguments as objects (Ollama has no call ids), and each tool result goes
 * back as a `tool` message with `tool_name`. Ollama has no `name` on
 * messages, so a named user message (another group-chat participant) says
 * who speaks in its text: `alice: Hello`.
 *
 * @example
 * toOllamaMessages([msg.tool('call_1', 'add', '5')]); // [{ role: 'tool', content: '5', tool_name: 'add' }]
 */
export function toOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  return messages.map((message): OllamaMessage => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return { role: 'user', content: message.name === undefined ? message.content : `${message.name}: ${message.content}` };
      case 'assistant':
        if (!message.toolCalls || message.toolCalls.length === 0) return { role: 'assistant', content: message.content };
        return {
          role: 'assistant',
          content: message.content,
          tool_calls: message.toolCalls.map((call) => ({
            function: { name: call.name, arguments: isRecord(call.arguments) ? call.arguments : {} },
          })),
        };
      case 'tool':
        return { role: 'tool', content: message.content, tool_name: message.toolName };
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
