import type { ChatRequest, Message, ToolChoice, ToolSpec } from '@agentchart/core';
import type { LanguageModelV3CallOptions, LanguageModelV3FunctionTool, LanguageModelV3Message, LanguageModelV3ToolChoice } from '@ai-sdk/provider';
import { resolveToolOffer } from '../shared/toolOffer.js';

/**
 * The transcript as an AI SDK prompt. The message shapes agentchart uses are
 * the same in specifications v2 and v3. The AI SDK has no `name` on messages,
 * so a named user message (another group-chat participant) says who speaks in
 * its text: `alice: Hello`.
 *
 * @example
 * toAiSdkPrompt([msg.tool('call_1', 'add', '5')]);
 * // [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', toolName: 'add', output: { type: 'text', value: '5' } }] }]
 */
export function toAiSdkPrompt(messages: readonly Message[]): LanguageModelV3Message[] {
  return messages.map((message): LanguageModelV3Message => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.content };
      case 'user':
        return {
          role: 'user',
          content: [{ type: 'text', text: message.name === undefined ? message.content : `${message.name}: ${message.content}` }],
        };
      case 'assistant': {
        const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = [];
        if (message.reasoning) content.push({ type: 'reasoning', text: message.reasoning });
        if (message.content !== '') content.push({ type: 'text', text: message.content });
        for (const call of message.toolCalls ?? []) {
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments ?? call.malformedArguments ?? {} });
        }
        return { role: 'assistant', content };
      }
      case 'tool':
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId,
              toolName: message.toolName,
              output: message.isError ? { type: 'error-text', value: message.content } : { type: 'text', value: message.content },
            },
          ],
        };
    }
  });
}

/** Tools as AI SDK function tools. */
export function toAiSdkTools(tools: readonly ToolSpec[]): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters }));
}

/** agentchart's tool choice as the AI SDK's: the same four kinds. */
export function toAiSdkToolChoice(choice: ToolChoice): LanguageModelV3ToolChoice {
  return typeof choice === 'string' ? { type: choice } : { type: 'tool', toolName: choice.name };
}

/** What `aiSdk()` adds to every call (sampling settings, provider options, headers). */
export type AiSdkCallSettings = Omit<LanguageModelV3CallOptions, 'prompt' | 'tools' | 'toolChoice' | 'responseFormat' | 'abortSignal'>;

/**
 * The call options for one request. Every tool is sent with the tool choice
 * (providers that see a past tool call in the transcript may require the
 * tool definitions even when no call is allowed now); a tool choice that
 * names no offered tool, or requires a call without tools, throws first.
 */
export function buildAiSdkCall(settings: AiSdkCallSettings, request: ChatRequest, signal: AbortSignal): LanguageModelV3CallOptions {
  resolveToolOffer(request); // checks the tool choice against the tools
  const options: LanguageModelV3CallOptions = { ...settings, prompt: toAiSdkPrompt(request.messages), abortSignal: signal };
  if (request.tools.length > 0) {
    options.tools = toAiSdkTools(request.tools);
    options.toolChoice = toAiSdkToolChoice(request.toolChoice);
  }
  if (request.responseFormat) {
    const { name, schema } = request.responseFormat;
    options.responseFormat = { type: 'json', name, schema };
  }
  return options;
}
