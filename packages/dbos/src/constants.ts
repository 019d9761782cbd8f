/**
 * How often, in ms, a worker looks for chats on its queue when it finds
 * none (DBOS's dispatch loop: one short query per poll, backing off when the
 * database is contended). A chat enqueued on an idle queue starts within
 * about this long.
 */
export const DEFAULT_QUEUE_POLLING_MS = 50;

/** How often, in ms, `ChatClient.result` looks whether a chat it waits for has finished. */
export const DEFAULT_RESULT_POLLING_MS = 50;
