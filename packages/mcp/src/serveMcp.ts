import type { Agent, GroupChat } from '@agentchart/actors';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { runLimiter } from './runLimiter.js';
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
  /** Runs (agent or chat) at once across all clients (default 8); a call beyond them is answered with an error result at once. */
  maxConcurrentRuns?: number;
}

/** Agents and chats as an MCP server, ready to be served. */
export interface AgentMcpServer {
  /** The MCP tools: one per agent or chat. */
  readonly toolNames: readonly string[];
  /** A new SDK server (v2 line) with the tools: one per connection, or per request on the 2026-07-28 line. */
  createServer(): SdkMcpServer;
  /** Serves one client over this process's stdin and stdout (2026-07-28 or 2025-11-25, as the client opens); resolves once listening. */
  serveStdio(): Promise<{ close(): Promise<void> }>;
  /** Serves clients of both protocol lines over Streamable HTTP (default 127.0.0.1, a free port, path `/mcp`). */
  serveHttp(options?: ServeHttpOptions): Promise<McpHttpListener>;
}

/** Default `maxConcurrentRuns`. */
export const DEFAULT_MAX_CONCURRENT_RUNS = 8;

const TaskArguments = z.object({ input: z.string().describe('The task or question, in plain language.') });

/**
 * Exposes agents and group chats as MCP tools, so an MCP client (an IDE,
 * another framework) can give them tasks: each takes `{ input }` and answers
 * with the agent's text or the chat's last message (details as structured
 * content). Clients of the 2026-07-28 line (`server/discover`, stateless
 * requests) and of 2025-11-25 and older (`initialize`, sessions) are both
 * answered. While it runs, progress notifications carry each chat turn (or
 * the agent's tool calls and answer) when the client asked for progress;
 * cancelling the request aborts the run. Calls that wait for approval are
 * rejected: an MCP client cannot approve them. At most `maxConcurrentRuns`
 * runs go at once.
 *
 * @example
 * const server = serveMcp({ agents: [researcher], chats: [team] });
 * await server.serveStdio();                       // for an IDE that starts this process
 * const { url } = await server.serveHttp({ port: 3001 }); // or over HTTP
 */
export function serveMcp(options: ServeMcpOptions): AgentMcpServer {
  const targets = servedTargets(options.agents ?? [], options.chats ?? []);
  const limiter = runLimiter(options.maxConcurrentRuns ?? DEFAULT_MAX_CONCURRENT_RUNS);
  const createServer = () => {
    const server = new SdkMcpServer({ name: options.name ?? 'agentchart', version: options.version ?? '0.1.0' }, { capabilities: { tools: {} } });
    for (const target of targets) registerTarget(server, target, limiter);
    return server;
  };
  return {
    toolNames: targets.map((target) => target.toolName),
    createServer,
    serveStdio: async () => {
      const handle = serveStdio(() => createServer());
      return { close: () => handle.close() };
    },
    serveHttp: (httpOptions = {}) => serveStreamableHttp(createServer, httpOptions),
  };
}

function registerTarget(server: SdkMcpServer, target: ServedTarget, limiter: ReturnType<typeof runLimiter>): void {
  server.registerTool(
    target.toolName,
    { description: target.description, inputSchema: TaskArguments, annotations: { readOnlyHint: false, openWorldHint: true } },
    async ({ input }, ctx) => {
      const release = limiter.take();
      if (release === undefined) {
        return {
          isError: true,
          content: [
            { type: 'text', text: `The server is running ${limiter.max} tasks already (\`maxConcurrentRuns\`): try again when one has finished.` },
          ],
        };
      }
      try {
        const token = ctx.mcpReq._meta?.progressToken;
        let count = 0;
        const report: ReportProgress = (message) => {
          if (token === undefined) return;
          count += 1;
          void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: count, message } }).catch(() => {});
        };
        return await runServedTarget(target, input, ctx.mcpReq.signal, report);
      } finally {
        release();
      }
    },
  );
}
