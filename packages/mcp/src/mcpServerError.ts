import { AgentchartError } from '@agentchart/core';

/**
 * A problem with an MCP server itself (not with one call of a tool, which the
 * model gets as an error result). `code` says which:
 * - `MCP_CONNECTION_FAILED`: the server could not be started or reached.
 * - `MCP_LIST_FAILED`: the server did not answer `tools/list`.
 * - `MCP_TOOL_SCHEMA_INVALID`: a tool's input schema is not a valid JSON Schema of an object.
 * - `MCP_TOOL_NAME_INVALID`: a tool's name cannot be offered to a model, even made safe.
 *
 * Messages never hold header values, environment values or URL queries.
 */
export class McpServerError extends AgentchartError {
  constructor(
    code: 'MCP_CONNECTION_FAILED' | 'MCP_LIST_FAILED' | 'MCP_TOOL_SCHEMA_INVALID' | 'MCP_TOOL_NAME_INVALID',
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, details);
  }
}
