import { TOOL_NAME_PATTERN } from '@agentchart/core/internal';
import { McpServerError } from './mcpServerError.js';

/** Between a server's prefix and a tool's name: `github__create_issue`. */
export const PREFIX_SEPARATOR = '__';

/**
 * The name a model sees for a server's tool: characters providers refuse
 * become `_`, and the prefix (if any) goes in front with `__`. Throws
 * `McpServerError` when the result is still not a valid name (too long).
 *
 * @example
 * modelToolName('create.issue', 'github', 'github'); // 'github__create_issue'
 */
export function modelToolName(serverToolName: string, prefix: string | undefined, server: string): string {
  const safe = serverToolName.replace(/[^a-zA-Z0-9_-]/g, '_');
  const name = prefix === undefined ? safe : `${prefix}${PREFIX_SEPARATOR}${safe}`;
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new McpServerError(
      'MCP_TOOL_NAME_INVALID',
      `MCP server "${server}" offers tool ${JSON.stringify(serverToolName)}, whose name for the model (${JSON.stringify(name)}) is not 1 to 64 letters, digits, "_" or "-": ` +
        'use a shorter prefix, or a filter that leaves the tool out.',
      { server, tool: serverToolName, modelName: name },
    );
  }
  return name;
}
