import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { ConfigurationError } from '@agentchart/core';
import {
  type McpServer as SdkMcpServer,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { httpAccess } from './httpAccess.js';

/** Where and how `serveHttp` listens. */
export interface ServeHttpOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1` (only this machine). */
  host?: string;
  /** Default `/mcp`. */
  path?: string;
  /**
   * `Host` header names accepted (with the port), against DNS rebinding.
   * Default: `127.0.0.1`, `localhost` and `[::1]`, and `host` when it is
   * another name or address.
   */
  allowedHosts?: readonly string[];
  /** `Origin` values accepted when a browser sends one (default: `http://` with each allowed host and the port). */
  allowedOrigins?: readonly string[];
  /** 2025-11-25 sessions open at once (default 100); an `initialize` beyond them gets 503. */
  maxSessions?: number;
  /** Milliseconds a 2025-11-25 session may go unused before it is closed (default 30 minutes). */
  sessionIdleMs?: number;
}

/** A running HTTP listener. */
export interface McpHttpListener {
  readonly url: string;
  /** 2025-11-25 sessions open now. */
  readonly sessions: number;
  close(): Promise<void>;
}

/** Largest request body accepted (JSON-RPC messages are small). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Default `maxSessions`. */
export const DEFAULT_MAX_MCP_SESSIONS = 100;

/** Default `sessionIdleMs`. */
export const DEFAULT_MCP_SESSION_IDLE_MS = 30 * 60_000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: SdkMcpServer;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * Streamable HTTP for `serveMcp`, for both protocol lines: a request of the
 * 2026-07-28 line (it carries its protocol version in `_meta`) is served on
 * its own by the SDK's per-request handler (`server/discover`, stateless
 * calls, `subscriptions/listen`); a 2025-11-25 client gets a session
 * (`mcp-session-id`) with its own server from `createServer`, closed after
 * `sessionIdleMs` unused, at most `maxSessions` at once. `Host` and `Origin`
 * are checked first.
 */
export async function serveStreamableHttp(createServerForSession: () => SdkMcpServer, options: ServeHttpOptions): Promise<McpHttpListener> {
  const path = options.path ?? '/mcp';
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS;
  const idleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
  for (const [name, value] of [
    ['maxSessions', maxSessions],
    ['sessionIdleMs', idleMs],
  ] as const) {
    if (!(Number.isInteger(value) && value > 0))
      throw new ConfigurationError(`serveHttp: \`${name}\` must be a positive whole number.`, { [name]: value });
  }
  const bindHost = options.host ?? '127.0.0.1';
  const sessions = new Map<string, Session>();
  const modern = createMcpHandler(() => createServerForSession(), { legacy: 'reject', maxRequestBodySize: MAX_BODY_BYTES });
  let access: ReturnType<typeof httpAccess> | undefined;

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    clearTimeout(session.timer);
    void session.server.close().catch(() => {});
  };
  const touch = (id: string) => {
    const session = sessions.get(id);
    if (session === undefined) return;
    clearTimeout(session.timer);
    session.timer = setTimeout(() => closeSession(id), idleMs);
    session.timer.unref?.();
  };

  const handleLegacy = async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = sessions.get(sessionId);
      if (session === undefined) return new Response('Unknown session: start a new one.', { status: 404 });
      touch(sessionId);
      return session.transport.handleRequest(request);
    }
    if (request.method !== 'POST') return new Response('Start a session with an initialize request.', { status: 400 });
    if (sessions.size >= maxSessions) {
      return new Response(`The server has ${maxSessions} sessions open (\`maxSessions\`): try again later.`, {
        status: 503,
        headers: { 'retry-after': '5' },
      });
    }
    const server = createServerForSession();
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, timer: setTimeout(() => closeSession(id), idleMs) });
        touch(id);
      },
      onsessionclosed: (id) => closeSession(id),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) closeSession(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(request);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const verdict = access?.check(req);
    if (verdict !== undefined) return void res.writeHead(verdict.status, { 'content-type': 'text/plain' }).end(verdict.message);
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path) return void res.writeHead(404).end(`Not found: the MCP endpoint is ${path}`);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const request = await webRequest(req, controller.signal);
    const response = (await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES }))
      ? await handleLegacy(request)
      : await modern.fetch(request);
    await sendResponse(response, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(error instanceof BodyError ? 413 : 500).end(error instanceof Error ? error.message : 'Internal error');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, bindHost, () => resolve());
  });
  const address = http.address() as AddressInfo;
  access = httpAccess({ port: address.port, bindHost, allowedHosts: options.allowedHosts, allowedOrigins: options.allowedOrigins });
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${path}`,
    get sessions() {
      return sessions.size;
    },
    close: async () => {
      for (const id of [...sessions.keys()]) closeSession(id);
      await modern.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

class BodyError extends Error {}

/** The Node request as a web `Request` (its body read whole, at most `MAX_BODY_BYTES`). */
async function webRequest(req: IncomingMessage, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const url = `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'DELETE') return new Request(url, { method: req.method, headers, signal });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyError('The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return new Request(url, { method: req.method ?? 'POST', headers, body: Buffer.concat(chunks), signal });
}

/** Writes a web `Response` (a JSON body or an SSE stream) to the Node response. */
async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (response.body === null) return void res.end();
  res.flushHeaders();
  const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
  res.on('close', () => body.destroy());
  for await (const chunk of body) res.write(chunk);
  res.end();
}
