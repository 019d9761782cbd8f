import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A protocol-neutral scripted reply; each wire server renders it in its protocol. */
export interface WireTurn {
  reasoning?: string[];
  text?: string[];
  toolCalls?: WireToolCall[];
  usage?: { input: number; output: number };
  /** The server's finish reason (default: tool calls or stop). */
  finish?: 'stop' | 'length';
  /** Answer with this status and JSON body instead of a stream. */
  httpError?: { status: number; body: unknown };
  /** Destroy the socket after this many stream frames. */
  dropAfter?: number;
  /** Send this many frames, then keep the connection open without finishing. */
  hangAfter?: number;
  /** Never answer (not even headers). */
  stall?: boolean;
  /** Send these frames verbatim instead of rendering the turn. */
  frames?: string[];
  /**
   * What the model writes when no grammar constrains it (a thinking model
   * whose `format` the server did not apply; a named choice a server turned
   * into `auto`): sent instead of `text` / `toolCalls` in those cases.
   */
  unconstrained?: { text?: string[]; toolCalls?: WireToolCall[] };
  /** After `text`, the server's tool parser fails: an error line in the stream instead of the calls and the end. */
  parserError?: string;
  /** After `text`, the server reports this error mid-stream in its protocol's own shape. */
  midStreamError?: string;
  /** OpenAI-compatible: the model refuses (`delta.refusal`). */
  refusal?: string;
  /** Send the headers at once, then wait this long before the first frame (a server reading a long prompt). */
  firstChunkDelayMs?: number;
  /** Extra response headers on an `httpError` (e.g. `retry-after`). */
  headers?: Record<string, string>;
  /** Send an HTTP error body of this many bytes (the body is `x` repeated). */
  hugeErrorBytes?: number;
}

export interface WireToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  /** Raw argument text (OpenAI streams text; use it to send malformed JSON). */
  argumentsText?: string;
  /** The id an OpenAI server sends (Ollama sends none). */
  id?: string;
}

/** A request as the server received it. */
export interface RecordedWireRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** How a request's connection ended on the server side. */
export interface ConnectionEnd {
  /** false when the connection closed before the server finished its answer. */
  finished: boolean;
}

/** Renders one turn as the frames of a protocol, or answers it another way. */
export interface WireProtocol {
  /** Answers requests that are not chat requests (probes, model lists); return false to treat as chat. */
  answerOther?(request: RecordedWireRequest, response: ServerResponse): boolean;
  contentType: string;
  frames(turn: WireTurn, request: RecordedWireRequest): string[];
  errorBody(turn: WireTurn): unknown;
}

export interface WireServer {
  /** e.g. `http://127.0.0.1:53211` */
  readonly url: string;
  readonly port: number;
  /** Every chat request, in order. */
  readonly requests: RecordedWireRequest[];
  /** Every other request (probes, model lists), in order. */
  readonly others: RecordedWireRequest[];
  /** Queues replies for the next chat requests. */
  script(...turns: WireTurn[]): void;
  /** Resolves when the connection of chat request `index` has closed. */
  connectionEnd(index: number): Promise<ConnectionEnd>;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) that answers chat requests
 * with scripted turns in a protocol's framing, records every request and
 * reports how each connection ended.
 */
export async function startWireServer(protocol: WireProtocol): Promise<WireServer> {
  const requests: RecordedWireRequest[] = [];
  const others: RecordedWireRequest[] = [];
  const queue: WireTurn[] = [];
  const ends: Array<{ promise: Promise<ConnectionEnd>; resolve: (end: ConnectionEnd) => void }> = [];
  const endOf = (index: number) => {
    while (ends.length <= index) {
      let resolve!: (end: ConnectionEnd) => void;
      const promise = new Promise<ConnectionEnd>((r) => (resolve = r));
      ends.push({ promise, resolve });
    }
    return ends[index] as (typeof ends)[number];
  };

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const recorded: RecordedWireRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body: raw === '' ? undefined : JSON.parse(raw),
    };
    if (protocol.answerOther?.(recorded, res)) return void others.push(recorded);
    const index = requests.length;
    requests.push(recorded);
    res.on('close', () => endOf(index).resolve({ finished: res.writableFinished }));
    const turn = queue.shift();
    if (turn === undefined) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `wire server: no scripted turn for request ${index + 1}` }));
      return;
    }
    if (turn.stall) return;
    if (turn.httpError) {
      res.writeHead(turn.httpError.status, { 'content-type': 'application/json', ...turn.headers });
      if (turn.hugeErrorBytes !== undefined) return void writeHuge(res, turn.hugeErrorBytes);
      res.end(JSON.stringify(protocol.errorBody(turn)));
      return;
    }
    res.writeHead(200, { 'content-type': protocol.contentType, 'cache-control': 'no-cache' });
    if (turn.firstChunkDelayMs !== undefined) {
      res.flushHeaders();
      await new Promise((resolve) => setTimeout(resolve, turn.firstChunkDelayMs));
    }
    const frames = turn.frames ?? protocol.frames(turn, recorded);
    for (let sent = 0; sent < frames.length; sent++) {
      if (turn.dropAfter === sent) return void res.socket?.destroy();
      if (turn.hangAfter === sent) return;
      res.write(frames[sent]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    others,
    script: (...turns) => void queue.push(...turns),
    connectionEnd: (index) => endOf(index).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `bytes` bytes of `x` in 64 KiB pieces, stopping when the client closes. */
function writeHuge(res: ServerResponse, bytes: number): void {
  const piece = Buffer.alloc(64 * 1024, 'x');
  let left = bytes;
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      const size = Math.min(left, piece.length);
      left -= size;
      if (!res.write(size === piece.length ? piece : piece.subarray(0, size))) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('error', () => undefined);
  pump();
}

/** A port on 127.0.0.1 where nothing listens (for connection-refused tests). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}
