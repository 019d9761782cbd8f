import { randomUUID } from 'node:crypto';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { ChatWorkflowInput, DurableChatEvent, DurableChatResult, DurableWaiting, EventBatch } from './chatWorkflow.js';
import type { ControlMessage } from './controlMessage.js';
import { parseControlMessage } from './controlMessage.js';
import { commandMisfit, describeWaiting } from './commandMisfit.js';
import { checkDatabase, databaseUrlFrom } from './database.js';
import { DEFAULT_RESULT_POLLING_MS } from './constants.js';
import { DbosChatError } from './errors.js';
import { positiveMs } from './positiveMs.js';
import { CHAT_WORKFLOW_NAME, CONTROL_TOPIC, DBOS_APPLICATION_NAME, DEFAULT_CHAT_QUEUE, EVENTS_STREAM, WAITING_EVENT } from './names.js';

/** A chat as any process sees it. */
export interface ChatStatus {
  chatId: string;
  /** The chat's name in the workers' module. */
  chat: string | undefined;
  /** DBOS's status: `ENQUEUED`, `PENDING` (running or waiting), `SUCCESS`, `ERROR`, `CANCELLED`, … */
  status: string;
  /** The executor (worker) that runs or ran it. */
  executor: string | undefined;
  /** What it waits for now, if anything. */
  waiting: DurableWaiting | null;
  /** Once it finished. */
  result: DurableChatResult | undefined;
  /** Once it failed. */
  error: string | undefined;
}

/** Which wait a decision answers. */
export interface DecisionOptions {
  /** The wait's number (`waiting.sequence`, as `status` or `waitForWaiting` read it); default: the chat's current wait. */
  wait?: number;
}

/** Acts on chats from any process that reaches the database: no worker code needed. */
export interface ChatClient {
  /** Enqueues a chat; returns its id (`chatId`, when given, makes the enqueue idempotent). */
  enqueue(chat: string, task: string, options?: { chatId?: string }): Promise<string>;
  status(chatId: string): Promise<ChatStatus>;
  /**
   * Sends a command for the chat's current wait (or the wait it names in
   * `wait`: the `sequence` of `waiting`); returns that wait's number. Throws
   * `CHAT_NOT_FOUND`, `CHAT_NOT_WAITING` (the chat waits for nothing this
   * command answers) or `WAIT_OVER` (the wait named is not the current one),
   * and then nothing is sent. The chat applies it to that wait only, once.
   */
  send(chatId: string, message: ControlMessage): Promise<number>;
  approve(chatId: string, id: string, options?: DecisionOptions): Promise<number>;
  reject(chatId: string, id: string, reason?: string, options?: DecisionOptions): Promise<number>;
  say(chatId: string, text: string, as?: string, options?: DecisionOptions): Promise<number>;
  select(chatId: string, speaker: string, options?: DecisionOptions): Promise<number>;
  /** Waits until the chat waits for a person (returns what for) or ends (returns `null`). */
  waitForWaiting(chatId: string, options?: { timeoutMs?: number }): Promise<DurableWaiting | null>;
  /** The chat's events, from the start, as they are written (ends when the chat ends). */
  events(chatId: string): AsyncGenerator<DurableChatEvent>;
  /** Waits for the chat's result. */
  result(chatId: string): Promise<DurableChatResult>;
  /** Puts the chats a dead worker was running back on the queue (see `Worker.recoverExecutor`). */
  recoverExecutor(executorId: string, options?: { queue?: string }): Promise<string[]>;
  close(): Promise<void>;
}

/** Where and how a `ChatClient` reaches the chats. */
export interface ChatClientOptions {
  /** Postgres (the workers' DBOS system database); default `DBOS_DATABASE_URL`. */
  databaseUrl?: string;
  /** The queue `enqueue` puts chats on (default `agentchart-chats`). */
  queue?: string;
  /** Connections to Postgres (default 4). */
  poolSize?: number;
  /**
   * How often, in ms, `result` looks whether the chat finished (default 50):
   * the longest between a chat's end and its result here. One indexed read
   * per look, only while a `result` call waits.
   */
  resultPollingMs?: number;
}

/**
 * Opens a client on the workers' database (`DBOS_DATABASE_URL` by default).
 * Throws `POSTGRES_UNREACHABLE` or `SCHEMA_MISSING` with what to do.
 *
 * @example
 * const client = await createChatClient();
 * const chatId = await client.enqueue('review', 'Review PR 42');
 * const waiting = await client.waitForWaiting(chatId);
 * if (waiting?.kind === 'approval') await client.approve(chatId, waiting.requests[0].id);
 * console.log((await client.result(chatId)).reason);
 */
export async function createChatClient(options: ChatClientOptions = {}): Promise<ChatClient> {
  const resultPollingMs = positiveMs(options.resultPollingMs ?? DEFAULT_RESULT_POLLING_MS, 'resultPollingMs');
  const databaseUrl = databaseUrlFrom(options.databaseUrl);
  await checkDatabase(databaseUrl, { schema: true });
  const client = await DBOSClient.create({
    systemDatabaseUrl: databaseUrl,
    applicationName: DBOS_APPLICATION_NAME,
    systemDatabasePoolSize: options.poolSize ?? 4,
  });
  const queue = options.queue ?? DEFAULT_CHAT_QUEUE;
  const known = async (chatId: string) => {
    const workflow = await client.getWorkflow(chatId);
    if (workflow === undefined) {
      throw new DbosChatError(
        'CHAT_NOT_FOUND',
        `No chat "${chatId}" in this database. Check the id (agentchart enqueue prints it) and DBOS_DATABASE_URL.`,
        { chatId },
      );
    }
    return workflow;
  };
  const status = async (chatId: string): Promise<ChatStatus> => {
    const workflow = await known(chatId);
    const waiting = workflow.status === 'PENDING' ? await client.getEvent<DurableWaiting | null>(chatId, WAITING_EVENT, { timeoutSeconds: 0 }) : null;
    const input = workflow.input?.[0] as ChatWorkflowInput | undefined;
    return {
      chatId,
      chat: input?.chat,
      status: workflow.status,
      executor: workflow.executorId,
      waiting: waiting ?? null,
      result: workflow.status === 'SUCCESS' ? (workflow.output as DurableChatResult) : undefined,
      error: workflow.status === 'ERROR' ? errorText(workflow.error) : undefined,
    };
  };
  /** Binds `message` to the wait it answers (checked against the chat's current wait), then sends it. */
  const send = async (chatId: string, command: ControlMessage): Promise<number> => {
    const message = parseControlMessage(command);
    const now = await status(chatId);
    const waiting = now.waiting;
    if (message.wait !== undefined && message.wait !== waiting?.sequence) {
      throw new DbosChatError(
        'WAIT_OVER',
        `Wait ${message.wait} of chat "${chatId}" is over or not open: ${waiting === null ? `the chat waits for nothing now (${now.status})` : `it waits for ${describeWaiting(waiting)} (wait ${waiting.sequence})`}. Nothing was sent.`,
        { chatId, wait: message.wait, waiting },
      );
    }
    const misfit = waiting === null ? message.type : commandMisfit(waiting, message);
    if (waiting === null || misfit !== undefined) {
      throw new DbosChatError(
        'CHAT_NOT_WAITING',
        `Chat "${chatId}" ${waiting === null ? `waits for nothing now (${now.status})` : `waits for ${describeWaiting(waiting)} (wait ${waiting.sequence})`}, not for ${misfit}. Nothing was sent: read \`agentchart status ${chatId}\` and answer what it waits for.`,
        { chatId, message, waiting },
      );
    }
    await client.send(chatId, { ...message, wait: waiting.sequence }, CONTROL_TOPIC);
    return waiting.sequence;
  };
  const bound = <T extends ControlMessage>(message: T, options: DecisionOptions | undefined): T =>
    options?.wait === undefined ? message : { ...message, wait: options.wait };
  return {
    async enqueue(chat, task, enqueueOptions = {}) {
      const chatId = enqueueOptions.chatId ?? `chat_${randomUUID()}`;
      const input: ChatWorkflowInput = { chat, task };
      await client.enqueue({ workflowName: CHAT_WORKFLOW_NAME, queueName: queue, workflowID: chatId }, input);
      return chatId;
    },
    status,
    send,
    approve: (chatId, id, options) => send(chatId, bound({ type: 'approve', id }, options)),
    reject: (chatId, id, reason, options) =>
      send(chatId, bound(reason === undefined ? { type: 'reject', id } : { type: 'reject', id, reason }, options)),
    say: (chatId, text, as, options) => send(chatId, bound(as === undefined ? { type: 'say', text } : { type: 'say', text, as }, options)),
    select: (chatId, speaker, options) => send(chatId, bound({ type: 'select', speaker }, options)),
    async waitForWaiting(chatId, waitOptions = {}) {
      const deadline = Date.now() + (waitOptions.timeoutMs ?? 60_000);
      for (;;) {
        const now = await status(chatId);
        if (now.waiting !== null) return now.waiting;
        if (now.status !== 'PENDING' && now.status !== 'ENQUEUED') return null;
        if (Date.now() > deadline)
          throw new Error(`Chat "${chatId}" did not wait for a person within ${waitOptions.timeoutMs ?? 60_000} ms (status ${now.status}).`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async *events(chatId) {
      await known(chatId);
      let next = 0;
      for await (const batch of client.readStream<EventBatch>(chatId, EVENTS_STREAM)) {
        for (let index = Math.max(0, next - batch.from); index < batch.events.length; index++) yield batch.events[index] as DurableChatEvent;
        next = Math.max(next, batch.from + batch.events.length);
      }
    },
    async result(chatId) {
      await known(chatId);
      return client.retrieveWorkflow<DurableChatResult>(chatId).getResult({ pollingIntervalMs: resultPollingMs });
    },
    async recoverExecutor(executorId, recoverOptions = {}) {
      const pending = await client.listWorkflows({ status: 'PENDING', executorId, workflowName: CHAT_WORKFLOW_NAME });
      const ids = pending.map((workflow) => workflow.workflowID);
      if (ids.length > 0) await client.resumeWorkflows(ids, { queueName: recoverOptions.queue ?? queue });
      return ids;
    },
    close: () => client.destroy(),
  };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}
