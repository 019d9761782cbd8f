/** Default milliseconds an MCP call may go without a result or progress (`mcpServer({ timeoutMs })`). */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

/** Default milliseconds to start or reach a server and initialize the session. */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

/** Characters of a stdio server's stderr kept for error details. */
export const MCP_STDERR_TAIL_CHARS = 2_000;

/** What agentchart calls itself when it connects to a server. */
export const MCP_CLIENT_INFO = { name: 'agentchart', version: '0.1.0' } as const;

/** Longest wait, on stdio, for an answer to the 2026-07-28 `server/discover` probe before speaking 2025-11-25. */
export const MCP_STDIO_PROBE_TIMEOUT_MS = 5_000;
