import type { Tool as AgUiTool } from '@ag-ui/core';
import { type AnyTool, defineTool } from '@agentchart/core';
import { TOOL_NAME_PATTERN } from '@agentchart/core/internal';
import { z } from 'zod';
import { AgUiError } from './agUiError.js';

/** The results the client sent for frontend tool calls, by the agentchart call id. */
export type FrontendResults = Map<string, string>;

/**
 * The input's frontend tools as agentchart tools the model is offered. A call
 * of one waits (as an approval does) until the client answers it with a tool
 * message on the next input; the tool's result is that message's content.
 * The client's JSON Schema becomes the tool's parameters; a tool with an
 * invalid name or schema is refused (`AG_UI_INPUT_INVALID`).
 *
 * @example
 * const tools = frontendTools([{ name: 'show_chart', description: 'Shows a chart', parameters: { type: 'object', properties: {} } }], results);
 */
export function frontendTools(tools: readonly AgUiTool[], results: FrontendResults): AnyTool[] {
  return tools.map((tool) => {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new AgUiError('AG_UI_INPUT_INVALID', `Frontend tool ${JSON.stringify(tool.name)}: a tool name is 1 to 64 letters, digits, "_" or "-".`);
    }
    let parameters: z.ZodType<Record<string, unknown>>;
    try {
      parameters = (tool.parameters === undefined ? z.object({}) : z.fromJSONSchema(tool.parameters)) as z.ZodType<Record<string, unknown>>;
    } catch (error) {
      throw new AgUiError(
        'AG_UI_INPUT_INVALID',
        `Frontend tool "${tool.name}" has parameters that are not a usable JSON Schema: ${(error as Error).message}`,
      );
    }
    return defineTool({
      name: tool.name,
      description: tool.description,
      parameters,
      approval: 'always',
      execute: (_args, ctx) => {
        const result = results.get(ctx.callId);
        if (result === undefined) throw new AgUiError('AG_UI_RUN_FAILED', `Frontend tool "${tool.name}" ran without the client's result.`);
        results.delete(ctx.callId);
        return result;
      },
    });
  });
}
