import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { WebSocket, WebSocketServer } from 'ws';
import { VIEW_HOST } from '../constants.js';
import { statelyBridgePage } from './statelyBridgePage.js';

/** What the bridge needs from the inspector that feeds it. */
export interface StatelyBridgeOptions {
  port: number;
  /** The page the bridge serves embeds this inspector. */
  inspectorUrl: string;
  /** The messages a receiver that connects now is sent first: every kept actor, announced with its latest snapshot. */
  announcements(): Iterable<StatelyInspectionEvent>;
}

/** A running bridge: an HTTP page that embeds the Stately inspector, and a WebSocket its page (or any receiver) connects to. */
export interface StatelyBridge {
  /** Resolves with the port once the bridge listens; rejects when it cannot (the port is taken). */
  readonly listening: Promise<number>;
  /** Whether any receiver is connected (messages are built only then). */
  readonly hasReceivers: boolean;
  /** Sends one message to every connected receiver. */
  send(message: StatelyInspectionEvent): void;
  stop(): void;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost'];

/**
 * The bridge between a process and the Stately inspector in a browser. A
 * receiver that connects (the bridge page, or `@statelyai/inspect`'s
 * `createWebSocketReceiver`) is first told about every actor with its latest
 * snapshot, then gets each message as it happens: nothing is replayed from a
 * bounded buffer, so no actor is lost however late it connects. It listens
 * on loopback only and refuses WebSocket connections from pages of other
 * origins (a browser lets any site open a WebSocket to 127.0.0.1).
 *
 * @example
 * const bridge = startStatelyBridge({ port: 8080, inspectorUrl, announcements: () => [] });
 * await bridge.listening;
 */
export function startStatelyBridge(options: StatelyBridgeOptions): StatelyBridge {
  const receivers = new Set<WebSocket>();
  const server = createServer((request, response) => answerPage(request, response, options.inspectorUrl));
  const sockets = new WebSocketServer({
    server,
    verifyClient: ({ origin }: { origin?: string }) => origin === undefined || origin === '' || isLoopbackOrigin(origin, portOf()),
  });
  const portOf = () => (server.address() as AddressInfo | null)?.port ?? options.port;
  sockets.on('connection', (socket) => {
    // Announced and then added in one turn: no message can fall between the two.
    for (const message of options.announcements()) socket.send(JSON.stringify(message));
    receivers.add(socket);
    socket.on('close', () => receivers.delete(socket));
    socket.on('error', () => receivers.delete(socket));
  });
  const listening = new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, VIEW_HOST, () => resolve(portOf()));
  });
  listening.catch(() => undefined); // the caller may not wait for it; the error is theirs to read from `listening`
  return {
    listening,
    get hasReceivers() {
      return receivers.size > 0;
    },
    send(message) {
      const text = JSON.stringify(message);
      for (const socket of receivers) if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    stop() {
      for (const socket of receivers) socket.terminate();
      receivers.clear();
      sockets.close();
      server.close();
    },
  };
}

function answerPage(request: IncomingMessage, response: ServerResponse, inspectorUrl: string): void {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  if (request.method !== 'GET' || path !== '/') {
    response.writeHead(path === '/favicon.ico' ? 204 : 404, { 'Content-Type': 'text/plain' });
    response.end();
    return;
  }
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(statelyBridgePage(inspectorUrl));
}

function isLoopbackOrigin(origin: string, port: number): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.port === String(port) && LOOPBACK_NAMES.includes(url.hostname);
  } catch {
    return false;
  }
}
