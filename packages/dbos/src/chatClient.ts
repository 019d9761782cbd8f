import { randomUUID } from 'node:crypto';
import { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { ChatWorkflowInput, DurableChatEvent, DurableChatResult, DurableWaiting, EventBatch } from './chatWorkflow.js';
import type { ControlMessage } from './controlMessage.js';
import { parseControlMessage } from './controlMessage.js';
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

/** Acts on chats from any process that reaches the database: no worker code needed. */
export interface ChatClient {
  /** Enqueues a chat; returns its id (`chatId`, when given, makes the enqueue idempotent). */
  enqueue(chat: string, task: string, options?: { chatId?: string }): Promise<string>;
  status(chatId: string): Promise<ChatStatus>;
  /** Sends a command to a chat; it is applied when the chat waits for it (refused ones appear in its events). */
  send(chatId: string, message: ControlMessage): Promise<void>;
  approve(chatId: string, id: string): Promise<void>;
  reject(chatId: string, id: string, reason?: string): Promise<void>;
  say(chatId: string, text: string, as?: string): Promise<void>;
  select(chatId: string, speaker: string): Promise<void>;
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
  const send = async (chatId: string, message: ControlMessage) => client.send(chatId, parseControlMessage(message), CONTROL_TOPIC);
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
  return {
    async enqueue(chat, task, enqueueOptions = {}) {
      const chatId = enqueueOptions.chatId ?? `chat_${randomUUID()}`;
      const input: ChatWorkflowInput = { chat, task };
      await client.enqueue({ workflowName: CHAT_WORKFLOW_NAME, queueName: queue, workflowID: chatId }, input);
      return chatId;
    },
    status,
    send,
    approve: (chatId, id) => send(chatId, { type: 'approve', id }),
    reject: (chatId, id, reason) => send(chatId, reason === undefined ? { type: 'reject', id } : { type: 'reject', id, reason }),
    say: (chatId, text, as) => send(chatId, as === undefined ? { type: 'say', text } : { type: 'say', text, as }),
    select: (chatId, speaker) => send(chatId, { type: 'select', speaker }),
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
