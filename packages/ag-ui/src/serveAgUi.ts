import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import { EventEncoder } from '@ag-ui/encoder';
import type { Agent, GroupChat } from '@agentchart/actors';
import type { RunStore } from '@agentchart/core';
import { AG_UI_MAX_ID_LENGTH, AG_UI_PATH_PREFIX, DEFAULT_AG_UI_MAX_BODY_BYTES } from './constants.js';
import { BodyError, readJsonBody } from './readBody.js';
import { type AccessOptions, checkAccess } from './requestAccess.js';
import { type ServedAgent, type ServedChat, servedTargets } from './servedTargets.js';
import { ThreadRuns } from './threadRuns.js';
import type { EventSink, ThreadSession } from './threadSession.js';

/** What `serveAgUi` takes. */
export interface ServeAgUiOptions extends AccessOptions {
  agents?: readonly (Agent | ServedAgent)[];
  chats?: readonly (GroupChat | ServedChat)[];
  /**
   * Keeps every run and chat in a store (`@agentchart/store/sqlite` or
   * `/postgres`): a thread waiting for a person survives the server's
   * restart, and its resume continues it from the store.
   */
  store?: RunStore;
  /** Who holds the leases of stored runs (default `<hostname>:<pid>`). Only with `store`. */
  owner?: string;
  /** How long a stored run's lease lasts unless renewed, in ms (default 30 000). Only with `store`. */
  leaseMs?: number;
  /** Largest request body, in bytes (default `DEFAULT_AG_UI_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
}

/** Where `listen` listens. */
export interface AgUiListenOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1` (only this machine). */
  host?: string;
}

/** A running AG-UI server. */
export interface AgUiListener {
  /** The base URL; each agent or chat is at `<url>/ag-ui/<name>`. */
  readonly url: string;
  /** The URL of one served agent or chat. */
  urlOf(name: string): string;
  /** Stops listening; runs not kept in a store are aborted. */
  close(): Promise<void>;
}

/** Agents and chats as AG-UI endpoints, ready to listen. */
export interface AgUiServer {
  /** The served names: `POST /ag-ui/<name>`. */
  readonly names: readonly string[];
  listen(options?: AgUiListenOptions): Promise<AgUiListener>;
}

const ID = new RegExp(`^[\\w.:@-]{1,${AG_UI_MAX_ID_LENGTH}}$`);

/**
 * Serves agents and group chats over AG-UI: `POST /ag-ui/<name>` with a
 * `RunAgentInput` answers with the run's AG-UI event stream (SSE). The
 * input's messages and state seed a new run; an approval or a person's turn
 * ends the stream with an interrupt (`RUN_FINISHED`, outcome `interrupt`),
 * and the next input on the thread that resumes it continues the same run.
 * Only 127.0.0.1 by default; `Host` and `Origin` are checked.
 *
 * @example
 * const server = serveAgUi({ chats: [team], store });
 * const listener = await server.listen({ port: 8000 });
 * const agent = new HttpAgent({ url: listener.urlOf('team') }); // @ag-ui/client
 */
export function serveAgUi(options: ServeAgUiOptions): AgUiServer {
  const targets = servedTargets(options.agents ?? [], options.chats ?? []);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_AG_UI_MAX_BODY_BYTES;
  const threads = new ThreadRuns(
    options.store === undefined
      ? undefined
      : {
          store: options.store,
          ...(options.owner === undefined ? {} : { owner: options.owner }),
          ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
        },
  );
  return {
    names: [...targets.keys()],
    listen: async (listenOptions = {}) => {
      let port = 0;
      const http = createServer((request, response) => {
        handle(request, response).catch((error: unknown) => {
          if (!response.headersSent)
            reply(response, error instanceof BodyError ? error.status : 500, error instanceof Error ? error.message : 'Internal error');
          else response.end();
        });
      });
      const handle = async (request: IncomingMessage, response: ServerResponse) => {
        const access = checkAccess(request, port, options);
        if (!access.ok) return reply(response, access.status, access.message);
        if (access.origin !== undefined) {
          response.setHeader('Access-Control-Allow-Origin', access.origin);
          response.setHeader('Vary', 'Origin');
        }
        if (request.method === 'OPTIONS') {
          response.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'content-type, accept' }).end();
          return;
        }
        const path = new URL(request.url ?? '/', 'http://localhost').pathname;
        const target = path.startsWith(AG_UI_PATH_PREFIX) ? targets.get(path.slice(AG_UI_PATH_PREFIX.length)) : undefined;
        if (target === undefined)
          return reply(
            response,
            404,
            `Not found: the served agents and chats are ${[...targets.keys()].map((name) => AG_UI_PATH_PREFIX + name).join(', ')}.`,
          );
        if (request.method !== 'POST') return reply(response, 405, 'POST a RunAgentInput.');
        const parsed = RunAgentInputSchema.safeParse(await readJsonBody(request, maxBodyBytes));
        if (!parsed.success)
          return reply(
            response,
            400,
            `The body is not a valid RunAgentInput: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
          );
        const input = parsed.data;
        if (!ID.test(input.threadId) || !ID.test(input.runId)) {
          return reply(response, 400, `threadId and runId must be 1 to ${AG_UI_MAX_ID_LENGTH} letters, digits, "_", "-", ".", ":" or "@".`);
        }
        const sink = sseSink(response);
        let session: ThreadSession | undefined;
        // A client that goes away mid-stream (HttpAgent.abortRun) stops the run.
        response.once('close', () => {
          if (sink.ended || session === undefined) return;
          session.detach();
          session.abort();
        });
        await threads.answer(target, input, sink, (attached) => {
          session = attached;
        });
      };
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(listenOptions.port ?? 0, listenOptions.host ?? '127.0.0.1', () => resolve());
      });
      const address = http.address() as AddressInfo;
      port = address.port;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      const url = `http://${host}:${address.port}`;
      return {
        url,
        urlOf: (name) => `${url}${AG_UI_PATH_PREFIX}${name}`,
        close: async () => {
          threads.close();
          http.closeAllConnections();
          await new Promise<void>((resolve) => http.close(() => resolve()));
        },
      };
    },
  };
}

function reply(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(message);
}

/** An SSE stream of AG-UI events, written with the official encoder. */
function sseSink(response: ServerResponse): EventSink & { readonly ended: boolean } {
  const encoder = new EventEncoder();
  let opened = false;
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    send(event: BaseEvent) {
      if (!opened) {
        response.writeHead(200, { 'content-type': encoder.getContentType(), 'cache-control': 'no-cache', connection: 'keep-alive' });
        opened = true;
      }
      response.write(encoder.encodeSSE(event));
    },
    end() {
      ended = true;
      response.end();
    },
  };
}
