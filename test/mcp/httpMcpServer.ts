import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** An MCP server over HTTP on 127.0.0.1, one SDK server per session (made by `build`). */
export interface TestHttpServer {
  url: string;
  /** Sessions opened so far. */
  readonly sessions: number;
  close(): Promise<void>;
}

export interface TestHttpServerOptions {
  /** Streamable HTTP (default), or only the old HTTP+SSE transport (a POST to the endpoint gets 405). */
  transport?: 'streamable-http' | 'sse';
  /** Requests without this authorization header get 401, with the header they sent echoed back. */
  authorization?: string;
}

/**
 * Starts an MCP server built with the SDK inside the test, on a free
 * loopback port: Streamable HTTP at `/mcp`, or HTTP+SSE (`GET /mcp`, `POST /messages`).
 */
export async function startHttpMcpServer(build: () => McpServer | Server, options: TestHttpServerOptions = {}): Promise<TestHttpServer> {
  const transports = new Map<string, Transport & { handleRequest?: unknown }>();
  let sessions = 0;
  const http = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.authorization !== undefined && req.headers.authorization !== options.authorization) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`Unauthorized: ${req.headers.authorization ?? '(none)'} is not accepted`);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (options.transport === 'sse') {
      if (req.method === 'GET' && url.pathname === '/mcp') {
        const transport = new SSEServerTransport('/messages', res);
        transports.set(transport.sessionId, transport);
        sessions += 1;
        await build().connect(transport);
        return;
      }
      if (req.method === 'POST' && url.pathname === '/messages') {
        const transport = transports.get(url.searchParams.get('sessionId') ?? '') as SSEServerTransport | undefined;
        if (!transport) return void res.writeHead(404).end('no session');
        await transport.handlePostMessage(req, res, body);
        return;
      }
      res.writeHead(405).end('method not allowed');
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? (transports.get(sessionId) as StreamableHTTPServerTransport | undefined) : undefined;
    if (transport === undefined) {
      if (req.method !== 'POST') return void res.writeHead(400).end('no session');
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void transports.set(id, created),
      });
      created.onclose = () => {
        if (created.sessionId) transports.delete(created.sessionId);
      };
      sessions += 1;
      await build().connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  };
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get sessions() {
      return sessions;
    },
    close: async () => {
      for (const transport of transports.values()) await transport.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}
