import type { Agent, GroupChat } from '@agentchart/actors';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { type ReportProgress, runServedTarget } from './runServedTarget.js';
import { type ServedAgent, type ServedChat, type ServedTarget, servedTargets } from './servedTargets.js';
import { type McpHttpListener, type ServeHttpOptions, serveStreamableHttp } from './serveStreamableHttp.js';

/** What `serveMcp` takes. */
export interface ServeMcpOptions {
  agents?: readonly (Agent | ServedAgent)[];
  chats?: readonly (GroupChat | ServedChat)[];
  /** The server's name in the MCP handshake (default `agentchart`). */
  name?: string;
  version?: string;
}

/** Agents and chats as an MCP server, ready to be served. */
export interface AgentMcpServer {
  /** The MCP tools: one per agent or chat. */
  readonly toolNames: readonly string[];
  /** A new SDK server with the tools (one per connection). */
  createServer(): SdkMcpServer;
  /** Serves one client over this process's stdin and stdout; resolves once connected. */
  serveStdio(): Promise<{ close(): Promise<void> }>;
  /** Serves clients over Streamable HTTP (default 127.0.0.1, a free port, path `/mcp`). */
  serveHttp(options?: ServeHttpOptions): Promise<McpHttpListener>;
}

const TaskArguments = { input: z.string().describe('The task or question, in plain language.') };

/**
 * Exposes agents and group chats as MCP tools, so an MCP client (an IDE,
 * another framework) can give them tasks: each takes `{ input }` and answers
 * with the agent's text or the chat's last message (details as structured
 * content). While it runs, progress notifications carry each chat turn (or
 * the agent's tool calls and answer) when the client asked for progress;
 * cancelling the request aborts the run. Calls that wait for approval are
 * rejected: an MCP client cannot approve them.
 *
 * @example
 * const server = serveMcp({ agents: [researcher], chats: [team] });
 * await server.serveStdio();                       // for an IDE that starts this process
 * const { url } = await server.serveHttp({ port: 3001 }); // or over HTTP
 */
export function serveMcp(options: ServeMcpOptions): AgentMcpServer {
  const targets = servedTargets(options.agents ?? [], options.chats ?? []);
  const createServer = () => {
    const server = new SdkMcpServer({ name: options.name ?? 'agentchart', version: options.version ?? '0.1.0' }, { capabilities: { tools: {} } });
    for (const target of targets) registerTarget(server, target);
    return server;
  };
  return {
    toolNames: targets.map((target) => target.toolName),
    createServer,
    serveStdio: async () => {
      const server = createServer();
      await server.connect(new StdioServerTransport());
      return { close: () => server.close() };
    },
    serveHttp: (httpOptions = {}) => serveStreamableHttp(createServer, httpOptions),
  };
}

function registerTarget(server: SdkMcpServer, target: ServedTarget): void {
  server.registerTool(
    target.toolName,
    { description: target.description, inputSchema: TaskArguments, annotations: { readOnlyHint: false, openWorldHint: true } },
    async ({ input }, extra) => {
      const token = extra._meta?.progressToken;
      let count = 0;
      const report: ReportProgress = (message) => {
        if (token === undefined) return;
        count += 1;
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch(() => {});
      };
      return runServedTarget(target, input, extra.signal, report);
    },
  );
}
