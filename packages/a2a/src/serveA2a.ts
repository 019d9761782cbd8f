import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import type { Agent, GroupChat } from '@agentchart/actors';
import type { RunStore } from '@agentchart/core';
import express from 'express';
import { agentCardOf } from './agentCard.js';
import { A2A_BASE_PATH, DEFAULT_A2A_HOST } from './constants.js';
import { hostAllowed } from './hostCheck.js';
import { type ServedA2aAgent, type ServedA2aChat, servedA2aTargets } from './servedA2aTargets.js';
import { StoredTaskStore } from './storedTaskStore.js';
import { TaskExecutor } from './taskExecutor.js';

/** What `serveA2a` takes. */
export interface ServeA2aOptions {
  agents?: readonly (Agent | ServedA2aAgent)[];
  chats?: readonly (GroupChat | ServedA2aChat)[];
  /**
   * Keeps every task's run or chat in this store: the task id is the run's
   * (or chat's) id, and a server started on the same store continues a task
   * another one began (docs/durability.md).
   */
  store?: RunStore;
  /** The lease owner this server takes runs under (default `<hostname>:<pid>`). Only with `store`. */
  owner?: string;
  /** How long a lease lasts unless renewed, in ms. Only with `store`. */
  leaseMs?: number;
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1` (only this machine). */
  host?: string;
  /** For a server bound beyond loopback: the `Host` names it answers to (default: any). */
  allowedHosts?: readonly string[];
  /** The agents' version on their cards (default `0.1.0`). */
  version?: string;
}

/** A running A2A server. */
export interface A2aServer {
  /** `http://<host>:<port>/a2a/`: each served name's base URL is below it. */
  readonly url: string;
  /** The served names, each at `<url><name>/`. */
  readonly names: readonly string[];
  /** The base URL of a served name, with its trailing slash (what A2A clients are given). */
  urlOf(name: string): string;
  /**
   * Stops listening. Runs without a store are aborted; runs kept in a store
   * stay there as they are, for a server started on the store to continue.
   */
  close(): Promise<void>;
}

/**
 * Serves agents and group chats as A2A agents: each at
 * `http://<host>:<port>/a2a/<name>/` with its Agent Card at
 * `<base>.well-known/agent-card.json`, over JSON-RPC (A2A 1.0 with the header
 * `A2A-Version: 1.0`; 0.3, through the SDK's compatibility layer, without it).
 * A message starts a task (the run), `message/stream` streams its progress,
 * a tool call waiting for approval or a person's turn makes the task
 * input-required, and the client answers in the same task.
 *
 * @example
 * const server = await serveA2a({ chats: [team], port: 4000 });
 * server.urlOf('team'); // 'http://127.0.0.1:4000/a2a/team/'
 * await server.close();
 */
export async function serveA2a(options: ServeA2aOptions): Promise<A2aServer> {
  const targets = servedA2aTargets(options.agents ?? [], options.chats ?? []);
  const bind = options.host ?? DEFAULT_A2A_HOST;
  let app: express.Express | undefined;
  const http: Server = createServer((req, res) => {
    if (app === undefined) return void res.writeHead(503).end('Starting: try again.');
    app(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, bind, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  const cardHost = bind === '0.0.0.0' || bind === '::' ? DEFAULT_A2A_HOST : bind.includes(':') ? `[${bind}]` : bind;
  const url = `http://${cardHost}:${port}${A2A_BASE_PATH}`;
  const kept = options.store === undefined ? undefined : { store: options.store, owner: options.owner, leaseMs: options.leaseMs };
  const executors: TaskExecutor[] = [];
  app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    if (hostAllowed(req, { bind, port, allowedHosts: options.allowedHosts })) return next();
    res.status(421).type('text/plain').send(`This A2A server answers only to its own address (${url}).`);
  });
  for (const target of targets) {
    const base = `${A2A_BASE_PATH}${target.name}/`;
    const executor = new TaskExecutor(target, kept);
    executors.push(executor);
    const handler = new DefaultRequestHandler(
      agentCardOf(target, `${url}${target.name}/`, options.version ?? '0.1.0'),
      new StoredTaskStore(target, options.store),
      executor,
    );
    app.use(`${base}.well-known/agent-card.json`, agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }));
    app.use(base, jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  }
  const names = targets.map((target) => target.name);
  app.use((req, res) => {
    res
      .status(404)
      .type('text/plain')
      .send(`Not found: ${req.path}. This server serves ${names.map((name) => `${url}${name}/`).join(', ')}.`);
  });
  return {
    url,
    names,
    urlOf: (name) => {
      if (!names.includes(name)) throw new Error(`serveA2a serves no "${name}"; it serves ${names.join(', ')}.`);
      return `${url}${name}/`;
    },
    close: async () => {
      if (kept === undefined) for (const executor of executors) executor.abortAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
