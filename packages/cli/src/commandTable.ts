import type { Command } from './command.js';

/** A command as the table knows it before it is loaded: its line in `agentchart --help`, and its module. */
interface CommandEntry {
  summary: string;
  load(): Promise<Command>;
}

const durable = (name: string) => async () => (await import('./commands/durable.js')).durableCommand(name);

/**
 * Every `agentchart` command, one module each, loaded only when it runs.
 * A new command is one file under commands/ and one line here.
 */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  diagram: {
    summary: 'diagram <file|script> [--format mermaid|svg|json] [--machine KEY] [--out PATH]',
    load: async () => (await import('./commands/diagram.js')).diagram,
  },
  trace: { summary: 'trace <trace.ndjson> [--verbose]', load: async () => (await import('./commands/trace.js')).trace },
  record: { summary: 'record <script> [--out FILE]', load: async () => (await import('./commands/record.js')).record },
  view: { summary: 'view <trace.ndjson|script> [--port N] [--speed N] [--now]', load: async () => (await import('./commands/view.js')).view },
  'check-model': {
    summary: 'check-model --provider ollama|openai --model <name> […]',
    load: async () => (await import('./commands/checkModel.js')).checkModel,
  },
  mcp: {
    summary: 'mcp serve --module <file> [--http] [--port N] [--host H] [--path /mcp]',
    load: async () => (await import('./commands/mcp.js')).mcp,
  },
  a2a: {
    summary: 'a2a serve --module <file> [--port N] [--host 127.0.0.1] [--store <sqlite file>] [--owner <name>]',
    load: async () => (await import('./commands/a2a.js')).a2a,
  },
  'ag-ui': {
    summary: 'ag-ui serve --module <file> [--port N] [--host 127.0.0.1] [--allow-origin URL]… [--allow-host NAME]…',
    load: async () => (await import('./commands/agUi.js')).agUi,
  },
  worker: { summary: 'worker --module <file> [--executor ID] [--concurrency N] […]', load: durable('worker') },
  enqueue: { summary: 'enqueue <chat> <task> [--id CHAT_ID]', load: durable('enqueue') },
  status: { summary: 'status <chatId> [--json]', load: durable('status') },
  events: { summary: 'events <chatId>', load: durable('events') },
  approve: { summary: 'approve <chatId> <callId> [--wait N]', load: durable('approve') },
  reject: { summary: 'reject <chatId> <callId> [--reason TEXT] [--wait N]', load: durable('reject') },
  say: { summary: 'say <chatId> <text> [--as NAME] [--wait N]', load: durable('say') },
  select: { summary: 'select <chatId> <speaker> [--wait N]', load: durable('select') },
  'record-result': { summary: 'record-result <chatId> <callId> <json> [--wait N]', load: durable('record-result') },
  recover: { summary: 'recover --executor ID', load: durable('recover') },
};
