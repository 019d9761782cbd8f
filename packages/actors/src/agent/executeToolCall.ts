import {
  type AnyTool,
  type ToolCall,
  type ToolContext,
  formatArgumentIssues,
  isToolError,
  toErrorInfo,
  toolOutputText,
  toolOutputValue,
  validateToolArguments,
} from '@agentchart/core';
import type { ToolOutcome } from './agentContext.js';

/**
 * Runs one tool call and turns every outcome into something the model can
 * read: an unknown tool, invalid arguments and a thrown error each become an
 * error result, never an exception.
 */
export async function executeToolCall(
  tools: ReadonlyMap<string, AnyTool>,
  call: ToolCall,
  context: Omit<ToolContext, 'callId' | 'toolName'>,
): Promise<ToolOutcome> {
  const tool = tools.get(call.name);
  if (tool === undefined) {
    const available = [...tools.keys()];
    return {
      content:
        `Unknown tool "${call.name}". ` +
        (available.length > 0 ? `Available tools: ${available.join(', ')}.` : 'No tools are available.'),
      isError: true,
    };
  }
  const ctx: ToolContext = { ...context, callId: call.id, toolName: tool.name };
  try {
    const validation = await validateToolArguments(tool, call, ctx);
    if (!validation.ok) return { content: formatArgumentIssues(tool.name, validation.issues), isError: true };
    const output = await tool.execute(validation.args, ctx);
    return { content: toolOutputText(output), isError: false, value: toolOutputValue(output) };
  } catch (error) {
    const info = toErrorInfo(error);
    if (isToolError(error)) return { content: error.message, isError: true, error: info };
    return { content: `Tool "${tool.name}" failed: ${info.message}`, isError: true, error: info };
  }
}
