/**
 * `agentchart a2a serve --module ./team.ts --port <p> [--host 127.0.0.1] [--store ./tasks.db]`:
 * serves the agents and group chats a module exports as A2A agents. It
 * parses its own arguments, so it stays apart from the other commands' options.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Agent, GroupChat } from '@agentchart/actors';
import { ConfigurationError, type RunStore } from '@agentchart/core';
import { serveA2a } from './serveA2a.js';

export const A2A_USAGE = `Usage: agentchart a2a serve --module <file> [--port N] [--host 127.0.0.1] [--store <sqlite file>] [--owner <name>]

Serves every agent and group chat the module exports (\`agents\` and/or \`chats\`,
lists, or a default export { agents, chats }) as an A2A agent at
http://<host>:<port>/a2a/<name>/, its Agent Card at <base>.well-known/agent-card.json.
  --port   the port (default: a free one; the URLs are printed)
  --host   the address to bind (default 127.0.0.1: this machine only)
  --store  keep every task in this SQLite file: a server started on it again continues them
  --owner  the lease owner of this server's runs (default <hostname>:<pid>)`;

/** What a served module exports. */
interface TeamModule {
  agents?: readonly Agent[];
  chats?: readonly GroupChat[];
  default?: { agents?: readonly Agent[]; chats?: readonly GroupChat[] };
}

/** What the CLI gives the command. */
export interface ServeA2aCommandOptions {
  /** Opens the store `--store <path>` names (the CLI gives the SQLite store); without it `--store` is refused. */
  openStore?: (path: string) => Promise<RunStore>;
}

/**
 * Runs `agentchart a2a ...` with the arguments after `a2a`; prints the
 * served URLs and serves until SIGINT or SIGTERM. `--help` prints the usage.
 * Returns the exit code (0, or 1 with the usage on a wrong argument).
 *
 * @example
 * await serveA2aCommand(['serve', '--module', './team.ts', '--port', '4000']);
 */
export async function serveA2aCommand(argv: readonly string[], options: ServeA2aCommandOptions = {}): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    console.error(`agentchart a2a: ${error instanceof Error ? error.message : String(error)}\n\n${A2A_USAGE}`);
    return 1;
  }
  const { positionals, values } = parsed;
  if (values.help) {
    console.log(A2A_USAGE);
    return 0;
  }
  if (positionals[0] !== 'serve' || positionals.length > 1 || values.module === undefined) {
    console.error(`agentchart a2a: ${positionals[0] !== 'serve' ? 'the command is `a2a serve`' : 'give --module <file>'}.\n\n${A2A_USAGE}`);
    return 1;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`agentchart a2a: --port must be a port number (0 to 65535); got ${values.port}.`);
    return 1;
  }
  const loaded = (await import(pathToFileURL(resolve(values.module)).href)) as TeamModule;
  const agents = loaded.agents ?? loaded.default?.agents ?? [];
  const chats = loaded.chats ?? loaded.default?.chats ?? [];
  if (agents.length === 0 && chats.length === 0) {
    throw new ConfigurationError(
      `${values.module} exports no agents or chats: export \`agents\` and/or \`chats\` (lists), or a default { agents, chats }.`,
    );
  }
  if (values.store !== undefined && options.openStore === undefined) {
    console.error('agentchart a2a: --store needs a CLI that can open stores (the `agentchart` command).');
    return 1;
  }
  const store = values.store === undefined ? undefined : await options.openStore?.(resolve(values.store));
  const server = await serveA2a({
    agents,
    chats,
    port,
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(store === undefined ? {} : { store }),
    ...(values.owner === undefined ? {} : { owner: values.owner }),
  });
  for (const name of server.names) console.log(`agentchart: serving ${name} at ${server.urlOf(name)}`);
  const stop = () =>
    void server
      .close()
      .then(() => store?.close())
      .then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      module: { type: 'string', short: 'm' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      store: { type: 'string' },
      owner: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
