import { parseCommandArgs } from '../args/parseCommandArgs.js';
import { UsageError } from '../cliErrors.js';
import { type Command, showHelp } from '../command.js';
import { EXIT } from '../exitCodes.js';
import { loadOptional } from '../loadOptional.js';

const USAGE = `Usage: agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]

Subcommands:
  serve  serves the agents and group chats a module exports (\`agents\`, \`chats\`) as MCP tools`;

const SERVE_USAGE = `Usage: agentchart mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]

Serves the agents and group chats a module exports (\`agents\` and/or \`chats\`, or a default
{ agents, chats }) as MCP tools: over stdio (for a client that starts this process), or
Streamable HTTP with --http.
--module  the module (.mjs, .js, or .ts with tsx installed)
--http    serve over HTTP instead of stdio
--port    the HTTP port (default: a free one)
--host    the HTTP host (default 127.0.0.1)
--path    the HTTP path (default /mcp)`;

/** `agentchart mcp serve`. */
export const mcp: Command = {
  async run(args, context) {
    const [subcommand, ...rest] = args;
    if (subcommand === '--help' || subcommand === '-h') return showHelp(USAGE);
    if (subcommand === undefined) throw new UsageError('agentchart mcp needs a subcommand, serve; see agentchart mcp --help.');
    if (subcommand !== 'serve')
      throw new UsageError(`agentchart mcp: unknown subcommand "${subcommand}"; did you mean serve? (agentchart mcp --help)`);
    const parsed = parseCommandArgs(rest, {
      command: 'agentchart mcp serve',
      options: {
        module: { type: 'string', short: 'm' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
        path: { type: 'string' },
      },
    });
    if (parsed === 'help') return showHelp(SERVE_USAGE);
    if (typeof parsed.values.module !== 'string')
      throw new UsageError('agentchart mcp serve needs --module <file>; see agentchart mcp serve --help.');
    const { mcpServeCommand } = await loadOptional(() => import('../mcp/mcpCommand.js'), '@agentchart/mcp', 'agentchart mcp serve');
    await mcpServeCommand(parsed, context);
    return EXIT.ok;
  },
};
