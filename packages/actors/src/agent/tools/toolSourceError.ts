import { AgentchartError } from '@agentchart/core';

/**
 * A problem with the tools a tool source (an MCP server) offers, found when
 * the list is loaded or changes. `code` says which:
 * - `TOOL_SOURCE_NAME_COLLISION`: two sources (or a source and the agent's own tools) offer one name.
 * - `TOOL_SOURCE_RULES_BROKEN`: a source removed a tool the tool rules need; without it they can deadlock.
 * - `TOOL_SOURCE_INVALID`: `toolSources` holds something that is not a tool source.
 * - `TOOL_SOURCE_NOT_LOADED`: `run.actor` was read while the run still loads its sources.
 */
export class ToolSourceError extends AgentchartError {
  constructor(
    code: 'TOOL_SOURCE_NAME_COLLISION' | 'TOOL_SOURCE_RULES_BROKEN' | 'TOOL_SOURCE_INVALID' | 'TOOL_SOURCE_NOT_LOADED',
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, details, options);
  }
}
