import {
  type ChatClient,
  createChatClient,
  checkDatabase,
  type DurableChatEvent,
  MODEL_STEP_NAME,
  seedOf,
  startWorker,
  type Worker,
} from '@agentchart/dbos';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { createPostgresRunStore } from '@agentchart/store/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/freePort.js';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';
import { chats, closeLedger, LEDGER_TABLE_SQL } from './chatsModule.js';

let server: TestPostgres;
let worker: Worker;
let client: ChatClient;
let db: pg.Pool;

beforeAll(async () => {
  server = await startTestPostgres();
  process.env.DBOS_DATABASE_URL = server.url;
  db = new pg.Pool({ connectionString: server.url, max: 2 });
  await db.query(LEDGER_TABLE_SQL);
  worker = await startWorker({ chats, executorId: 'test-worker', workerConcurrency: 10 });
  client = await createChatClient();
}, 180_000);

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await closeLedger();
  await db?.end();
  await server?.stop();
}, 60_000);

const ledgerRows = async (chatId: string) =>
  (
    await db.query<{ idempotency_key: string; tool: string; detail: string }>(
      'SELECT idempotency_key, tool, detail FROM test_ledger WHERE idempotency_key LIKE $1 ORDER BY id',
      [`${chatId}/%`],
    )
  ).rows;

async function allEvents(chatId: string): Promise<DurableChatEvent[]> {
  const events: DurableChatEvent[] = [];
  for await (const event of client.events(chatId)) events.push(event);
  return events;
}

describe('group chats as DBOS workflows', () => {
  it('runs an enqueued four-agent chat to the end: each model call a step, each tool call once, events readable from another client', async () => {
    const chatId = await client.enqueue('fourAgents', 'Take notes.', { chatId: 'chat-four-1' });
    const result = await client.result(chatId);
    expect(result).toMatchObject({
      chatId,
      reason: 'max-rounds',
      rounds: 4,
      lastSpeaker: 'dee',
      lastMessage: 'dee done after 6 messages',
      executor: 'test-worker',
    });
    expect((await ledgerRows(chatId)).map((row) => [row.idempotency_key, row.detail])).toEqual([
      [`${chatId}/run-1:call_1`, 'ann at 1'],
      [`${chatId}/run-2:call_1`, 'bob at 2'],
      [`${chatId}/run-3:call_1`, 'cy at 3'],
      [`${chatId}/run-4:call_1`, 'dee at 4'],
    ]);
    const modelSteps = (await DBOS.listWorkflowSteps(chatId))?.filter((step) => step.name === MODEL_STEP_NAME);
    expect(modelSteps).toHaveLength(8); // two model calls per agent, each a recorded step
    const steps = await client.status(chatId);
    expect(steps).toMatchObject({ status: 'SUCCESS', chat: 'fourAgents', executor: 'test-worker', waiting: null });
    const events = await allEvents(chatId);
    expect(events[0]).toMatchObject({ type: 'chat.started', chatId });
    expect(events.at(-1)).toMatchObject({ type: 'chat.finished', chatId, reason: 'max-rounds', rounds: 4 });
    expect(events.filter((event) => event.type === 'turn.finished').map((event) => (event as { speaker: string }).speaker)).toEqual([
      'ann',
      'bob',
      'cy',
      'dee',
    ]);
    const store = await createPostgresRunStore({ connectionString: server.url });
    try {
      expect((await store.loadRun(chatId))?.status).toBe('finished');
      expect((await store.listCalls(chatId)).map((entry) => [entry.callId, entry.status])).toEqual([
        [`${chatId}/run-1#call_1`, 'finished'],
        [`${chatId}/run-2#call_1`, 'finished'],
        [`${chatId}/run-3#call_1`, 'finished'],
        [`${chatId}/run-4#call_1`, 'finished'],
      ]);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('draws a random speaker order from the chat id: the same for the same id', async () => {
    const order = async (chatId: string) => {
      await client.result(await client.enqueue('randomFour', 'Go.', { chatId }));
      return (await allEvents(chatId)).filter((event) => event.type === 'speaker.selected').map((event) => (event as { speaker: string }).speaker);
    };
    const first = await order('chat-random-a');
    expect(first).toHaveLength(4);
    const db2 = await db.query('SELECT count(*)::int AS n FROM test_ledger WHERE idempotency_key LIKE $1', ['chat-random-a/%']);
    expect(db2.rows[0].n).toBe(4);
    // A second chat with the same id is the same workflow: DBOS returns its recorded result and nothing runs again.
    await client.enqueue('randomFour', 'Go.', { chatId: 'chat-random-a' }).catch(() => undefined);
    expect((await db.query('SELECT count(*)::int AS n FROM test_ledger WHERE idempotency_key LIKE $1', ['chat-random-a/%'])).rows[0].n).toBe(4);
    expect(await order('chat-random-b')).toHaveLength(4);
    // The same chat run in this process (no workflow: its tools run, unjournaled) with the id's seed picks the same speakers.
    const local = chats.randomFour.run('Go.', { chatId: 'chat-random-local', randomSeed: seedOf('chat-random-a') });
    const localOrder: string[] = [];
    local.events$.subscribe((event) => event.type === 'speaker.selected' && localOrder.push(event.speaker));
    await local.result;
    expect(localOrder).toEqual(first);
  }, 60_000);

  it('waits durably for an approval: the wait is visible from a client, a wrong id is refused before it is sent, approve runs the call once', async () => {
    const chatId = await client.enqueue('payment', 'Pay Bob 250.', { chatId: 'chat-pay-1' });
    const waiting = await client.waitForWaiting(chatId, { timeoutMs: 30_000 });
    expect(waiting).toMatchObject({
      kind: 'approval',
      speaker: 'payer',
      requests: [{ id: 'call_1', toolName: 'pay', arguments: { to: 'Bob', amount: 250 } }],
    });
    expect(await ledgerRows(chatId)).toEqual([]);
    await expect(client.approve(chatId, 'no-such-call')).rejects.toMatchObject({ code: 'CHAT_NOT_WAITING' });
    expect(await client.approve(chatId, 'call_1')).toBe(waiting?.sequence);
    const result = await client.result(chatId);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 2, lastSpeaker: 'checker' });
    expect((await ledgerRows(chatId)).map((row) => [row.tool, row.detail])).toEqual([
      ['pay', 'Bob 250'],
      ['note', 'checker at 2'],
    ]);
    // The wrong id was refused by the client: nothing reached the chat.
    expect((await allEvents(chatId)).filter((event) => event.type === 'control.refused')).toEqual([]);
  }, 60_000);

  it('never runs an in-doubt call again by itself: it waits for a person, who records its result', async () => {
    const chatId = 'chat-in-doubt-1';
    const store = await createPostgresRunStore({ connectionString: server.url });
    try {
      // A worker died while ann's `note` ran: the call is started in the journal, with no result.
      const lease = await store.createRun({ runId: chatId, kind: 'chat', name: 'fourAgents', owner: 'dead-worker', leaseMs: 30_000 });
      await store.recordCallStarted(lease, {
        callId: `${chatId}/run-1#call_1`,
        toolName: 'note',
        argumentsHash: argumentsHashOf({ text: 'ann at 1' }),
        idempotencyKey: `${chatId}/run-1:call_1`,
      });
      await store.releaseLease(lease);
    } finally {
      await store.close();
    }
    await client.enqueue('fourAgents', 'Take notes.', { chatId });
    const waiting = await client.waitForWaiting(chatId, { timeoutMs: 30_000 });
    expect(waiting).toEqual({ kind: 'in-doubt', id: `${chatId}/run-1#call_1`, toolName: 'note', arguments: { text: 'ann at 1' }, sequence: 1 });
    await client.send(chatId, { type: 'record', id: `${chatId}/run-1#call_1`, result: 'noted (checked by hand)' });
    expect(await client.result(chatId)).toMatchObject({ reason: 'max-rounds', rounds: 4 });
    // ann's call was not run again; the three others ran once each.
    expect((await ledgerRows(chatId)).map((row) => row.detail)).toEqual(['bob at 2', 'cy at 3', 'dee at 4']);
    const types = (await allEvents(chatId)).map((event) => event.type);
    expect(types).toContain('call.in-doubt');
    expect(types).toContain('call.in-doubt.decided');
  }, 60_000);

  it('says clearly when Postgres is unreachable, when the schema is missing, and when a chat does not exist', async () => {
    const port = await freePort();
    await expect(checkDatabase(`postgres://nobody@127.0.0.1:${port}/x`)).rejects.toMatchObject({ code: 'POSTGRES_UNREACHABLE' });
    await db.query('CREATE DATABASE empty_db');
    const emptyUrl = server.url.replace(/\/postgres$/, '/empty_db');
    await expect(createChatClient({ databaseUrl: emptyUrl })).rejects.toMatchObject({
      code: 'SCHEMA_MISSING',
      message: expect.stringContaining('agentchart worker --module'),
    });
    await expect(client.status('chat-that-never-was')).rejects.toMatchObject({ code: 'CHAT_NOT_FOUND' });
    await expect(client.send('chat-four-1', { type: 'approve' } as never)).rejects.toMatchObject({ code: 'CONTROL_MESSAGE_INVALID' });
  }, 60_000);

  it('commits at most 33 write transactions for a four-agent chat, from its enqueue to its result', async () => {
    // Postgres gives a transaction id to each transaction that writes; the next one to give counts them.
    const nextTransactionId = async () =>
      Number((await db.query<{ next: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS next')).rows[0]?.next);
    const counts: number[] = [];
    for (const n of [1, 2, 3]) {
      const before = await nextTransactionId();
      await client.result(await client.enqueue('fourAgents', 'Take notes.', { chatId: `chat-writes-${n}` }));
      await new Promise((resolve) => setTimeout(resolve, 150)); // DBOS's coalesced NOTIFY of the last writes
      counts.push((await nextTransactionId()) - before);
    }
    // The least of three: a worker's heartbeat (one a second) may fall into a chat. Per chat: enqueue 1,
    // dequeue 1, 8 model steps, the event batches (one per turn after the first, one at the end: 4),
    // the chat's row 1, the journal 8 (intent and result of 4 calls), its end 1, DBOS's result 1,
    // the test tool's own ledger rows 4, and DBOS's NOTIFYs of the stream writes.
    expect(Math.min(...counts)).toBeLessThanOrEqual(33);
  }, 60_000);

  it('polls its queue every 50 ms by default, and refuses a polling interval or a result wait that is not a positive number of ms', async () => {
    const queue = await DBOS.retrieveQueue(worker.queue);
    expect(await queue?.getMinPollingIntervalMs()).toBe(50);
    await expect(createChatClient({ resultPollingMs: 0 })).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: 'resultPollingMs is a positive number of milliseconds (got 0). Pass e.g. 50.',
    });
    await expect(startWorker({ chats, queuePollingMs: Number.NaN })).rejects.toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: 'queuePollingMs is a positive number of milliseconds (got NaN). Pass e.g. 50.',
    });
  }, 60_000);
});

import { argumentsHash as argumentsHashOf } from '@agentchart/actors/internal';
