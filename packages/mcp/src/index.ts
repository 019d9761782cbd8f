export { mcpServer, type McpServer } from './mcpServer.js';
export type {
  McpServerOptions,
  McpStdioOptions,
  McpHttpOptions,
  McpCommonOptions,
  McpApproval,
  McpApprovalContext,
  McpToolDescription,
  McpInputRequest,
  McpInputAnswer,
  McpProtocol,
  McpLimits,
} from './mcpServerOptions.js';
export { DEFAULT_MCP_LIMITS } from './mcpServerOptions.js';
export { mcpToolOrigin, type McpToolOrigin } from './mcpTool.js';
export type { McpToolResult } from './mcpCallResult.js';
export { McpServerError } from './mcpServerError.js';
export { DEFAULT_MCP_TIMEOUT_MS, DEFAULT_MCP_CONNECT_TIMEOUT_MS } from './constants.js';
export { PREFIX_SEPARATOR } from './mcpToolName.js';
export { serveMcp, type ServeMcpOptions, type AgentMcpServer, DEFAULT_MAX_CONCURRENT_RUNS } from './serveMcp.js';
export type { ServedAgent, ServedChat } from './servedTargets.js';
export { type ServeHttpOptions, type McpHttpListener, DEFAULT_MAX_MCP_SESSIONS, DEFAULT_MCP_SESSION_IDLE_MS } from './serveStreamableHttp.js';
