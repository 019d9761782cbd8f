import { readFile } from 'node:fs/promises';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigurationError } from '@agentchart/core';
import { DEFAULT_VIEW_PORT, VIEW_HOST } from '../constants.js';
import { renderGraphToSvg } from '../diagrams/renderSvg.js';
import { type SanitizeOptions, sanitizeValue } from '../sanitize/sanitizeValue.js';
import type { MachineGraph } from '../diagrams/machineGraph.js';
import type { TraceLine, TraceSink } from '../trace/traceSinks.js';
import { toNdjson } from '../trace/traceSinks.js';
import { viewAccess } from './viewAccess.js';

/** What `startViewServer` takes. */
export interface ViewServerOptions {
  /** The port on 127.0.0.1 (default 4321; 0 picks a free one). */
  port?: number;
  /** The URL token (default: 144 fresh random bits per launch). Only for tests that need a fixed URL. */
  token?: string;
}

/** The local live view: a page on 127.0.0.1 fed with trace lines as they come. */
export interface ViewServer {
  /** The page's address, with the per-launch token: `http://127.0.0.1:4321/<token>/`. */
  readonly url: string;
  /** Write trace lines here (a recorder's sink, or a replayed trace). */
  readonly sink: TraceSink;
  /** Resolves when the first page connects (to start a run once someone watches). */
  readonly firstViewer: Promise<void>;
  /** Closes the server and every open page stream. */
  close(): Promise<void>;
}

const PAGE_FILES: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: 'style.css', type: 'text/css; charset=utf-8' },
};

/**
 * How a line is cleaned again before it is served: secrets redacted and
 * names cut (`maxNameLength`), nothing else trimmed (a recorder already cut
 * what its options say; a machine's graph keeps every node).
 */
const SERVED_LINE: SanitizeOptions = {
  maxStringLength: Number.POSITIVE_INFINITY,
  maxArrayItems: Number.POSITIVE_INFINITY,
  maxDepth: 64,
  dropKeys: [],
};

/** Nothing on the page may come from elsewhere. */
const SECURITY_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/**
 * Serves the live view on 127.0.0.1 (only): the transcript as it grows, who speaks,
 * tool calls and refusals, and every machine as SVG with its current state
 * highlighted. Trace lines written to `sink` reach open pages over
 * server-sent events; a page opened late gets the whole history first.
 * Everything is served under a per-launch token (`url` has it) and only to
 * requests whose `Host` (and `Origin`, when sent) is 127.0.0.1 or localhost
 * on this port; trace lines are redacted again (and names cut) before they are served.
 *
 * @example
 * const view = await startViewServer({ port: 0 });
 * const recorder = createTraceRecorder({ sink: view.sink, title: 'research' });
 * const run = agent.run('…', { inspect: recorder.inspect });
 * recorder.recordRun(run);
 * console.log(`open ${view.url}`);
 */
export async function startViewServer(options: ViewServerOptions = {}): Promise<ViewServer> {
  const history: TraceLine[] = [];
  const streams = new Set<ServerResponse>();
  const graphs = new Map<string, MachineGraph>();
  const svgs = new Map<string, Promise<string>>();
  let viewerArrived: () => void = () => undefined;
  const firstViewer = new Promise<void>((resolve) => {
    viewerArrived = resolve;
  });

  const send = (response: ServerResponse, line: TraceLine) => response.write(`data: ${JSON.stringify(line)}\n\n`);
  const sink: TraceSink = {
    write: (written) => {
      // A replayed trace may come from anywhere: redact again (credentials, token shapes, secret keys) and cut names.
      const line = sanitizeValue(written, SERVED_LINE) as TraceLine;
      history.push(line);
      if (line.kind === 'machine') graphs.set(line.machine, line.graph);
      for (const stream of streams) send(stream, line);
    },
  };

  const access = viewAccess(options.token);
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const verdict = access.check(request, (server.address() as AddressInfo).port);
    if ('status' in verdict) return reply(response, verdict.status, 'text/plain', verdict.message);
    const { path } = verdict;
    if (request.method !== 'GET') return reply(response, 405, 'text/plain', 'Only GET.');
    const page = PAGE_FILES[path];
    if (page) return reply(response, 200, page.type, await readFile(new URL(`./page/${page.file}`, import.meta.url), 'utf8'));
    if (path === '/events') {
      response.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream', Connection: 'keep-alive' });
      response.write(': agentchart live view\n\n');
      for (const line of history) send(response, line);
      streams.add(response);
      viewerArrived();
      request.on('close', () => streams.delete(response));
      return undefined;
    }
    if (path === '/trace.ndjson') return reply(response, 200, 'application/x-ndjson', toNdjson(history));
    const machine = /^\/machines\/(.+)\.svg$/.exec(path);
    if (machine) {
      const key = decodeURIComponent(machine[1] as string);
      const graph = graphs.get(key);
      if (!graph) return reply(response, 404, 'text/plain', `No machine "${key}" in this trace.`);
      if (!svgs.has(key)) svgs.set(key, renderGraphToSvg(graph));
      return reply(response, 200, 'image/svg+xml', await (svgs.get(key) as Promise<string>));
    }
    return reply(response, 404, 'text/plain', 'Not found.');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, 'text/plain', error instanceof Error ? error.message : String(error));
      else response.end();
    });
  });
  const wanted = options.port ?? DEFAULT_VIEW_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigurationError(`Port ${wanted} on ${VIEW_HOST} is in use: pass another port, or 0 for a free one.`, { port: wanted })
          : error,
      ),
    );
    server.listen(wanted, VIEW_HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${VIEW_HOST}:${port}/${access.token}/`,
    sink,
    firstViewer,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        streams.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function reply(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type });
  response.end(body);
}
