export { mcpServer, type McpServer } from './mcpServer.js';
export type {
  McpServerOptions,
  McpStdioOptions,
  McpHttpOptions,
  McpCommonOptions,
  McpApproval,
  McpApprovalContext,
  McpToolDescription,
} from './mcpServerOptions.js';
export { mcpToolOrigin, type McpToolOrigin } from './mcpTool.js';
export type { McpToolResult } from './mcpCallResult.js';
export { McpServerError } from './mcpServerError.js';
export { DEFAULT_MCP_TIMEOUT_MS, DEFAULT_MCP_CONNECT_TIMEOUT_MS } from './constants.js';
export { PREFIX_SEPARATOR } from './mcpToolName.js';
export { serveMcp, type ServeMcpOptions, type AgentMcpServer } from './serveMcp.js';
export type { ServedAgent, ServedChat } from './servedTargets.js';
export type { ServeHttpOptions, McpHttpListener } from './serveStreamableHttp.js';
