import type { GroupChat } from '@agentchart/actors';
import { createPostgresRunStore } from '@agentchart/store/postgres';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { type ChatWorkflowInput, type DurableChatResult, runChatWorkflow } from './chatWorkflow.js';
import { checkDatabase, databaseUrlFrom } from './database.js';
import { DbosChatError } from './errors.js';
import { startHeartbeats } from './workerHeartbeats.js';
import { DEFAULT_QUEUE_POLLING_MS } from './constants.js';
import { positiveMs } from './positiveMs.js';
import { CHAT_WORKFLOW_NAME, DBOS_APPLICATION_NAME, DEFAULT_CHAT_QUEUE } from './names.js';

/** How a worker process runs chats. */
export interface WorkerOptions {
  /** The chats this worker may run, by name (what a worker module exports as `chats`). */
  chats: Readonly<Record<string, GroupChat>>;
  /** Postgres (DBOS's system database and the run store); default `DBOS_DATABASE_URL`. */
  databaseUrl?: string;
  /**
   * This worker's DBOS executor id (default `DBOS__VMID`, else `local`). A
   * worker restarted with the same id recovers the chats it was running.
   */
  executorId?: string;
  /** The queue (default `agentchart-chats`). */
  queue?: string;
  /** How many chats this worker runs at once (default 50). */
  workerConcurrency?: number;
  /** How many chats all workers together run at once (default: no limit). */
  globalConcurrency?: number;
  /**
   * How often, in ms, the worker looks for chats on an idle queue (default
   * 50): the longest a chat waits between its enqueue and its start. Each
   * look is one short query; lower costs the database more while idle,
   * higher delays starts. The queue keeps the settings of the worker that
   * started last (every option above is the queue's).
   */
  queuePollingMs?: number;
  /**
   * The code version: DBOS recovers a chat only on workers of the version
   * that started it. Default: DBOS's hash of the registered workflows. Set it
   * (e.g. to a release tag) to control which deploy finishes which chats.
   */
  applicationVersion?: string;
  /** The chat lease's duration in ms (default 30 000). */
  leaseMs?: number;
  /** DBOS's log level (default `warn`). */
  logLevel?: string;
  /**
   * Take over a dead worker's chats: when another worker on this queue has
   * not written its heartbeat (every second) for this many ms, its pending
   * chats are put back on the queue (`recoverExecutor`). Default: off (a
   * worker recovers its own chats when it is restarted with the same
   * `executorId`). Choose it well above a worker's longest pause.
   */
  takeOverAfterMs?: number;
}

/** A running worker. */
export interface Worker {
  readonly executorId: string;
  readonly queue: string;
  /**
   * Takes over the chats a dead worker was running: puts them back on the
   * queue, where any live worker (this one included) picks them up. Only for
   * an executor that is really gone (its process killed, its machine lost):
   * a live one would run them at the same time (its tool calls are fenced by
   * the chat lease, but its model calls would be made twice).
   */
  recoverExecutor(executorId: string): Promise<string[]>;
  /** Chats this worker took over from dead ones, by executor. */
  readonly takenOver: ReadonlyMap<string, readonly string[]>;
  /** Stops taking chats and shuts DBOS down (chats in flight are recovered by the next start). */
  stop(): Promise<void>;
}

let started = false;
/** How often a worker writes its heartbeat (and looks for silent ones). */
const HEARTBEAT_MS = 1_000;
/** How often, at most, this worker's DBOS sends the LISTEN/NOTIFY wake-ups of its stream and event writes. */
const NOTIFICATION_COALESCE_MS = 100;

/**
 * Starts a worker in this process: registers the chat workflow, launches
 * DBOS on Postgres (creating its schema on first use), and takes chats from
 * the queue (at most `workerConcurrency` here, `globalConcurrency` across
 * workers). Chats this executor was running when it died are recovered.
 * One worker per process.
 *
 * @example
 * const worker = await startWorker({ chats: { review: reviewChat }, executorId: 'worker-1', workerConcurrency: 20 });
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const queuePollingMs = positiveMs(options.queuePollingMs ?? DEFAULT_QUEUE_POLLING_MS, 'queuePollingMs');
  if (started) throw new Error('A worker is already running in this process (DBOS is one per process).');
  const chats = new Map(Object.entries(options.chats));
  if (chats.size === 0) {
    throw new DbosChatError(
      'WORKER_MODULE_INVALID',
      'A worker needs at least one chat: export `chats = { name: createGroupChat(…) }` from its module.',
    );
  }
  const databaseUrl = databaseUrlFrom(options.databaseUrl);
  await checkDatabase(databaseUrl);
  started = true;
  const store = await createPostgresRunStore({ connectionString: databaseUrl });
  const queue = options.queue ?? DEFAULT_CHAT_QUEUE;
  const executorId = options.executorId ?? process.env.DBOS__VMID ?? 'local';
  const env = { chats, store, leaseMs: options.leaseMs ?? 30_000 };
  DBOS.setConfig({
    name: DBOS_APPLICATION_NAME,
    systemDatabaseUrl: databaseUrl,
    executorID: executorId,
    logLevel: options.logLevel ?? 'warn',
    // Wake-ups of in-process stream and event readers, at most every 100 ms: chat clients poll
    // (a DBOSClient listens to nothing), so a busy worker sends a few NOTIFYs, not one per write.
    notificationCoalesceMs: NOTIFICATION_COALESCE_MS,
    ...(options.applicationVersion === undefined ? {} : { applicationVersion: options.applicationVersion }),
  });
  DBOS.registerWorkflow((input: ChatWorkflowInput): Promise<DurableChatResult> => runChatWorkflow(env, input), { name: CHAT_WORKFLOW_NAME });
  // The heartbeat first: a restarted worker is live again before it recovers its chats.
  const heartbeats = await startHeartbeats(databaseUrl, executorId, queue, HEARTBEAT_MS);
  try {
    await DBOS.launch();
    await DBOS.registerQueue(queue, {
      workerConcurrency: options.workerConcurrency ?? 50,
      ...(options.globalConcurrency === undefined ? {} : { globalConcurrency: options.globalConcurrency }),
      minPollingIntervalMs: queuePollingMs,
      onConflict: 'always_update',
    });
  } catch (error) {
    started = false;
    await heartbeats.stop();
    await store.close();
    throw error;
  }
  const recoverExecutor = async (deadExecutorId: string) => {
    const pending = await DBOS.listWorkflows({ status: 'PENDING', executorId: deadExecutorId, workflowName: CHAT_WORKFLOW_NAME });
    const ids = pending.map((workflow) => workflow.workflowID);
    if (ids.length > 0) await DBOS.resumeWorkflows(ids, { queueName: queue });
    return ids;
  };
  const takenOver = new Map<string, string[]>();
  const takeOverAfterMs = options.takeOverAfterMs;
  const watcher =
    takeOverAfterMs === undefined
      ? undefined
      : setInterval(() => {
          void (async () => {
            for (const dead of await heartbeats.claimSilent(takeOverAfterMs)) {
              const ids = await recoverExecutor(dead);
              takenOver.set(dead, [...(takenOver.get(dead) ?? []), ...ids]);
              DBOS.logger.info(`agentchart: worker ${dead} is silent; ${ids.length} chats put back on ${queue}`);
            }
          })().catch(() => undefined);
        }, HEARTBEAT_MS);
  return {
    executorId,
    queue,
    takenOver,
    recoverExecutor,
    async stop() {
      if (watcher !== undefined) clearInterval(watcher);
      await heartbeats.stop();
      await DBOS.shutdown();
      await store.close();
      started = false;
    },
  };
}
