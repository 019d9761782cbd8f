/**
 * `agentchart mcp serve --module ./team.ts [--http] [--port N] [--host H] [--path P]`:
 * serves the agents and group chats a module exports as MCP tools, over
 * stdio (default: for a client that starts this process) or Streamable HTTP.
 * The module exports `agents` and/or `chats` (lists), or a default export
 * `{ agents, chats }`. It parses its own arguments, so it stays apart from
 * the other commands' options.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Agent, GroupChat } from '@agentchart/actors';
import { serveMcp } from '@agentchart/mcp';

export const MCP_USAGE = 'agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]';

/** What a served module exports. */
interface TeamModule {
  agents?: readonly Agent[];
  chats?: readonly GroupChat[];
  default?: { agents?: readonly Agent[]; chats?: readonly GroupChat[] };
}

/**
 * Runs `agentchart mcp ...` with the arguments after `mcp`. Over stdio,
 * everything the module prints with console.log goes to stderr: stdout
 * carries the protocol.
 *
 * @example
 * await mcpCommand(['serve', '--module', './team.ts', '--http', '--port', '3001']);
 */
export async function mcpCommand(argv: readonly string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      module: { type: 'string', short: 'm' },
      http: { type: 'boolean', default: false },
      port: { type: 'string' },
      host: { type: 'string' },
      path: { type: 'string' },
    },
  });
  if (positionals[0] !== 'serve' || values.module === undefined) throw new Error(`Usage: ${MCP_USAGE}`);
  const stdio = !values.http;
  if (stdio) console.log = (...args: unknown[]) => console.error(...args);
  const loaded = (await import(pathToFileURL(resolve(values.module)).href)) as TeamModule;
  const agents = loaded.agents ?? loaded.default?.agents ?? [];
  const chats = loaded.chats ?? loaded.default?.chats ?? [];
  if (agents.length === 0 && chats.length === 0) {
    throw new Error(`${values.module} exports no agents or chats: export \`agents\` and/or \`chats\` (lists), or a default { agents, chats }.`);
  }
  const server = serveMcp({ agents, chats });
  if (stdio) {
    await server.serveStdio();
    console.error(`agentchart: serving ${server.toolNames.join(', ')} over stdio`);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number; got ${values.port}.`);
  const listener = await server.serveHttp({ port, ...(values.host ? { host: values.host } : {}), ...(values.path ? { path: values.path } : {}) });
  console.error(`agentchart: serving ${server.toolNames.join(', ')} at ${listener.url}`);
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
