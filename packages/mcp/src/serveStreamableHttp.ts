import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Where `serveHttp` listens. */
export interface ServeHttpOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1` (only this machine). */
  host?: string;
  /** Default `/mcp`. */
  path?: string;
}

/** A running HTTP listener. */
export interface McpHttpListener {
  readonly url: string;
  close(): Promise<void>;
}

/** Largest request body accepted (JSON-RPC messages are small). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Streamable HTTP for `serveMcp`: a session per client (`mcp-session-id`),
 * each with its own server from `createServer`.
 */
export async function serveStreamableHttp(createServerForSession: () => SdkMcpServer, options: ServeHttpOptions): Promise<McpHttpListener> {
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: SdkMcpServer }>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return void res.writeHead(404).end(`Not found: the MCP endpoint is ${path}`);
    const sessionId = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    let session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (session === undefined) {
      if (typeof sessionId === 'string') return void res.writeHead(404).end('Unknown session: start a new one.');
      if (req.method !== 'POST') return void res.writeHead(400).end('Start a session with an initialize request.');
      const server = createServerForSession();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      session = { transport, server };
    }
    await session.transport.handleRequest(req, res, body);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(error instanceof BodyError ? 400 : 500).end(error instanceof Error ? error.message : 'Internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = http.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${path}`,
    close: async () => {
      for (const { server } of sessions.values()) await server.close().catch(() => {});
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

class BodyError extends Error {}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyError('The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new BodyError('The request body is not JSON.');
  }
}
