/**
 * `agentchart mcp serve --module ./team.ts [--http] [--port N] [--host H] [--path P]`:
 * serves the agents and group chats a module exports as MCP tools, over
 * stdio (default: for a client that starts this process) or Streamable HTTP.
 * The module exports `agents` and/or `chats` (lists), or a default export
 * `{ agents, chats }`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Agent, GroupChat } from '@agentchart/actors';
import { serveMcp } from '@agentchart/mcp';
import type { ParsedArgs } from '../args/parseCommandArgs.js';
import type { CommandContext } from '../command.js';
import { UsageError } from '../cliErrors.js';
import { prepareToImport } from '../watch/loadTypeScript.js';

/** What a served module exports. */
interface TeamModule {
  agents?: readonly Agent[];
  chats?: readonly GroupChat[];
  default?: { agents?: readonly Agent[]; chats?: readonly GroupChat[] };
}

/**
 * Runs `agentchart mcp serve` with its parsed options. Over stdio,
 * everything the module prints with console.log goes to stderr: stdout
 * carries the protocol.
 *
 * @example
 * await mcpServeCommand({ values: { module: './team.mjs', http: true, port: '3001' }, positionals: [] }, context);
 */
export async function mcpServeCommand({ values }: ParsedArgs, context: CommandContext): Promise<void> {
  const module = values.module as string;
  const stdio = values.http !== true;
  if (stdio) console.log = (...args: unknown[]) => console.error(...args);
  const moduleUrl = pathToFileURL(resolve(module)).href;
  await prepareToImport(moduleUrl, context);
  const loaded = (await import(moduleUrl)) as TeamModule;
  const agents = loaded.agents ?? loaded.default?.agents ?? [];
  const chats = loaded.chats ?? loaded.default?.chats ?? [];
  if (agents.length === 0 && chats.length === 0) {
    throw new Error(`${module} exports no agents or chats: export \`agents\` and/or \`chats\` (lists), or a default { agents, chats }.`);
  }
  const server = serveMcp({ agents, chats });
  if (stdio) {
    await server.serveStdio();
    console.error(`agentchart: serving ${server.toolNames.join(', ')} over stdio`);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a port number; got ${values.port}.`);
  const { host, path } = values as { host?: string; path?: string };
  const listener = await server.serveHttp({ port, ...(host ? { host } : {}), ...(path ? { path } : {}) });
  console.error(`agentchart: serving ${server.toolNames.join(', ')} at ${listener.url}`);
  const stop = () => void listener.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
