import { type ChatRequest, ConfigurationError, type ToolSpec } from '@agentchart/core';

/** The tools a provider offers for one request, and whether a call is required. */
export interface ToolOffer {
  tools: readonly ToolSpec[];
  /** `required` or a named tool: the reply must be a call of one of `tools`. */
  mustCall: boolean;
  /** Set when one tool was named. */
  namedTool?: string;
}

/**
 * Applies the request's tool choice to its tools: `none` offers none, a named
 * tool offers only that tool, `auto` and `required` offer all of them.
 * Offering only what may be called is what keeps small models from calling
 * the wrong tool on servers that ignore `tool_choice`.
 *
 * @example
 * resolveToolOffer({ messages, tools: [add, sub], toolChoice: { type: 'tool', name: 'add' } });
 * // { tools: [add], mustCall: true, namedTool: 'add' }
 */
export function resolveToolOffer(request: Pick<ChatRequest, 'tools' | 'toolChoice'>): ToolOffer {
  const { tools, toolChoice } = request;
  if (toolChoice === 'none') return { tools: [], mustCall: false };
  if (toolChoice === 'auto') return { tools, mustCall: false };
  if (tools.length === 0) {
    throw new ConfigurationError(
      `toolChoice ${JSON.stringify(toolChoice)} requires a tool call, but the request offers no tools. Offer tools or use toolChoice 'auto'.`,
      { toolChoice },
    );
  }
  if (toolChoice === 'required') return { tools, mustCall: true };
  const named = tools.filter((tool) => tool.name === toolChoice.name);
  if (named.length === 0) {
    throw new ConfigurationError(
      `toolChoice names the tool "${toolChoice.name}", which is not among the offered tools (${tools.map((tool) => tool.name).join(', ')}).`,
      { toolChoice, tools: tools.map((tool) => tool.name) },
    );
  }
  return { tools: named, mustCall: true, namedTool: toolChoice.name };
}
