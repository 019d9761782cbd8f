/**
 * `agentchart ag-ui serve --module ./team.ts [--port N] [--host H]`: serves
 * the agents and group chats a module exports over AG-UI. The module exports
 * `agents` and/or `chats` (lists), or a default export `{ agents, chats }`;
 * it may export `store` (a `RunStore`) to keep every run in it.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Agent, GroupChat } from '@agentchart/actors';
import type { RunStore } from '@agentchart/core';
import { type AgUiListener, serveAgUi } from './serveAgUi.js';

/** The usage line of `agentchart ag-ui`. */
export const AG_UI_USAGE = `Usage: agentchart ag-ui serve --module <file> [--port N] [--host 127.0.0.1] [--allow-origin URL]... [--allow-host NAME]...

Serves the agents and group chats the module exports (\`agents\`, \`chats\`, or a default { agents, chats }; \`store\` keeps
their runs) over AG-UI: POST http://<host>:<port>/ag-ui/<name> with a RunAgentInput answers with the event stream (SSE).
Only 127.0.0.1 unless --host says otherwise; browser pages of other origins need --allow-origin.`;

interface TeamModule {
  agents?: readonly Agent[];
  chats?: readonly GroupChat[];
  store?: RunStore;
  default?: { agents?: readonly Agent[]; chats?: readonly GroupChat[]; store?: RunStore };
}

/**
 * Runs `agentchart ag-ui ...` with the arguments after `ag-ui`; resolves with
 * the listener once it serves (`undefined` after `--help`, whose usage goes
 * to stdout). The line naming the served URLs goes to `log` (default stderr).
 *
 * @example
 * const listener = await agUiCommand(['serve', '--module', './team.ts', '--port', '8000']);
 */
export async function agUiCommand(
  argv: readonly string[],
  log: (line: string) => void = (line) => console.error(line),
): Promise<AgUiListener | undefined> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      module: { type: 'string', short: 'm' },
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      'allow-host': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    console.log(AG_UI_USAGE);
    return undefined;
  }
  if (positionals[0] !== 'serve' || positionals.length > 1 || values.module === undefined) throw new Error(AG_UI_USAGE);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number; got ${values.port}.`);
  const loaded = (await import(pathToFileURL(resolve(values.module)).href)) as TeamModule;
  const agents = loaded.agents ?? loaded.default?.agents ?? [];
  const chats = loaded.chats ?? loaded.default?.chats ?? [];
  const store = loaded.store ?? loaded.default?.store;
  if (agents.length === 0 && chats.length === 0) {
    throw new Error(`${values.module} exports no agents or chats: export \`agents\` and/or \`chats\` (lists), or a default { agents, chats }.`);
  }
  const server = serveAgUi({
    agents,
    chats,
    ...(store === undefined ? {} : { store }),
    ...(values['allow-origin'] === undefined ? {} : { allowedOrigins: values['allow-origin'] }),
    ...(values['allow-host'] === undefined ? {} : { allowedHosts: values['allow-host'] }),
  });
  const listener = await server.listen({ port, ...(values.host === undefined ? {} : { host: values.host }) });
  log(`agentchart: serving ${server.names.map((name) => listener.urlOf(name)).join(', ')} over AG-UI`);
  return listener;
}
