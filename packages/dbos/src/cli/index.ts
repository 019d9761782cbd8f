/**
 * The `agentchart` subcommands that run and act on durable chats (DBOS on Postgres):
 *
 *   agentchart worker --module ./chats.ts [--executor ID] [--concurrency N] [--global-concurrency N] [--take-over-after MS] [--queue-polling MS]
 *   agentchart enqueue <chat> <task> [--id CHAT_ID]
 *   agentchart status <chatId> [--json]
 *   agentchart events <chatId>
 *   agentchart approve <chatId> <callId> [--wait N]
 *   agentchart reject <chatId> <callId> [--reason TEXT] [--wait N]
 *   agentchart say <chatId> <text> [--as NAME] [--wait N]
 *   agentchart select <chatId> <speaker> [--wait N]
 *   agentchart record-result <chatId> <callId> <json> [--wait N]
 *   agentchart recover --executor ID
 *
 * Every command takes `--database URL` (default `DBOS_DATABASE_URL`) and `--queue NAME`.
 * A decision (approve, reject, say, select, record-result) answers the chat's
 * current wait, or the one `--wait N` names (the number `status` prints): a
 * command that answers no current wait exits 1 and sends nothing.
 */
import { parseArgs } from 'node:util';
import { type ChatClient, createChatClient } from '../chatClient.js';
import { startWorker } from '../worker.js';
import { loadWorkerModule } from './loadWorkerModule.js';

export const DBOS_COMMANDS = ['worker', 'enqueue', 'status', 'events', 'approve', 'reject', 'say', 'select', 'record-result', 'recover'] as const;

export const DBOS_USAGE = `Durable chats (DBOS on Postgres; --database URL or DBOS_DATABASE_URL):
  agentchart worker --module ./chats.ts [--executor ID] [--concurrency N] [--global-concurrency N] [--take-over-after MS] [--queue-polling MS]
  agentchart enqueue <chat> <task> [--id CHAT_ID]
  agentchart status <chatId> [--json]
  agentchart events <chatId>
  agentchart approve <chatId> <callId> [--wait N]
  agentchart reject <chatId> <callId> [--reason TEXT] [--wait N]
  agentchart say <chatId> <text> [--as NAME] [--wait N]
  agentchart select <chatId> <speaker> [--wait N]
  agentchart record-result <chatId> <callId> <json> [--wait N]
  agentchart recover --executor ID`;

/** True when `command` is one of these subcommands. */
export function isDbosCommand(command: string | undefined): boolean {
  return (DBOS_COMMANDS as readonly (string | undefined)[]).includes(command);
}

/**
 * Runs one subcommand (`argv` without `node` and the script); returns the
 * exit code. `worker` resolves once the worker stopped (SIGINT / SIGTERM).
 *
 * @example
 * process.exitCode = await runDbosCommand(['status', 'chat_123']);
 */
export async function runDbosCommand(argv: readonly string[], out: (line: string) => void = console.log): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      database: { type: 'string' },
      queue: { type: 'string' },
      module: { type: 'string' },
      executor: { type: 'string' },
      concurrency: { type: 'string' },
      'global-concurrency': { type: 'string' },
      'take-over-after': { type: 'string' },
      'queue-polling': { type: 'string' },
      'app-version': { type: 'string' },
      id: { type: 'string' },
      reason: { type: 'string' },
      as: { type: 'string' },
      wait: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const [command, ...rest] = positionals;
  const need = (count: number, usage: string) => {
    if (rest.length < count) throw new Error(`Usage: agentchart ${command} ${usage}`);
    return rest;
  };
  if (command === 'worker') {
    if (values.module === undefined) throw new Error('Usage: agentchart worker --module ./chats.ts (the module exports `chats`).');
    const worker = await startWorker({
      chats: await loadWorkerModule(values.module),
      ...(values.database === undefined ? {} : { databaseUrl: values.database }),
      ...(values.executor === undefined ? {} : { executorId: values.executor }),
      ...(values.queue === undefined ? {} : { queue: values.queue }),
      ...(values.concurrency === undefined ? {} : { workerConcurrency: wholeNumber(values.concurrency, '--concurrency') }),
      ...(values['global-concurrency'] === undefined ? {} : { globalConcurrency: wholeNumber(values['global-concurrency'], '--global-concurrency') }),
      ...(values['take-over-after'] === undefined ? {} : { takeOverAfterMs: wholeNumber(values['take-over-after'], '--take-over-after') }),
      ...(values['queue-polling'] === undefined ? {} : { queuePollingMs: wholeNumber(values['queue-polling'], '--queue-polling') }),
      ...(values['app-version'] === undefined ? {} : { applicationVersion: values['app-version'] }),
    });
    out(`worker ${worker.executorId} ready on queue ${worker.queue} (pid ${process.pid})`);
    await new Promise<void>((resolve) => {
      const stop = () => void worker.stop().finally(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  }
  // Opened once the command line is known to be right: a wrong one is a usage error, whatever the database.
  let opened: Promise<ChatClient> | undefined;
  const connect = () =>
    (opened ??= createChatClient({
      ...(values.database === undefined ? {} : { databaseUrl: values.database }),
      ...(values.queue === undefined ? {} : { queue: values.queue }),
    }));
  try {
    await clientCommand(connect, command, need, values, out);
    return 0;
  } finally {
    if (opened !== undefined) await (await opened.catch(() => undefined))?.close();
  }
}

async function clientCommand(
  connect: () => Promise<ChatClient>,
  command: string | undefined,
  need: (count: number, usage: string) => string[],
  values: { id?: string; reason?: string; as?: string; json?: boolean; executor?: string; wait?: string },
  out: (line: string) => void,
): Promise<void> {
  const decision = values.wait === undefined ? {} : { wait: wholeNumber(values.wait, '--wait') };
  if (command === 'enqueue') {
    const [chat, ...task] = need(2, '<chat> <task> [--id CHAT_ID]');
    out(await (await connect()).enqueue(chat as string, task.join(' '), values.id === undefined ? {} : { chatId: values.id }));
  } else if (command === 'status') {
    const [chatId] = need(1, '<chatId> [--json]');
    const status = await (await connect()).status(chatId as string);
    if (values.json) out(JSON.stringify(status));
    else {
      out(`${status.chatId} (${status.chat ?? '?'}): ${status.status} on ${status.executor ?? '-'}`);
      if (status.waiting !== null) out(`waiting (wait ${status.waiting.sequence}): ${JSON.stringify(status.waiting)}`);
      if (status.result !== undefined)
        out(`finished: ${status.result.reason} after ${status.result.rounds} rounds; last: ${status.result.lastMessage ?? ''}`);
      if (status.error !== undefined) out(`failed: ${status.error}`);
    }
  } else if (command === 'events') {
    const [chatId] = need(1, '<chatId>');
    for await (const event of (await connect()).events(chatId as string)) out(JSON.stringify(event));
  } else if (command === 'approve') {
    const [chatId, id] = need(2, '<chatId> <callId> [--wait N]');
    const wait = await (await connect()).approve(chatId as string, id as string, decision);
    out(`approved ${id} (wait ${wait} of ${chatId})`);
  } else if (command === 'reject') {
    const [chatId, id] = need(2, '<chatId> <callId> [--reason TEXT] [--wait N]');
    const wait = await (await connect()).reject(chatId as string, id as string, values.reason, decision);
    out(`rejected ${id} (wait ${wait} of ${chatId})`);
  } else if (command === 'say') {
    const [chatId, ...text] = need(2, '<chatId> <text> [--as NAME] [--wait N]');
    const wait = await (await connect()).say(chatId as string, text.join(' '), values.as, decision);
    out(`said (wait ${wait} of ${chatId})`);
  } else if (command === 'select') {
    const [chatId, speaker] = need(2, '<chatId> <speaker> [--wait N]');
    const wait = await (await connect()).select(chatId as string, speaker as string, decision);
    out(`selected ${speaker} (wait ${wait} of ${chatId})`);
  } else if (command === 'record-result') {
    const [chatId, id, json] = need(3, '<chatId> <callId> <json> [--wait N]');
    let result: unknown;
    try {
      result = JSON.parse(json as string);
    } catch {
      throw new Error(`The result to record must be JSON (quote a text: '"done"'); got ${json}.`);
    }
    const wait = await (await connect()).send(chatId as string, { type: 'record', id: id as string, result, ...decision });
    out(`recorded the result of ${id} (wait ${wait} of ${chatId})`);
  } else if (command === 'recover') {
    if (values.executor === undefined) throw new Error('Usage: agentchart recover --executor ID (a worker that is gone for good).');
    const ids = await (await connect()).recoverExecutor(values.executor);
    out(`${ids.length} chats of ${values.executor} put back on the queue`);
  } else {
    throw new Error(`Unknown command "${command}".\n\n${DBOS_USAGE}`);
  }
}

function wholeNumber(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} takes a whole number of at least 1; got ${text}.`);
  return value;
}
