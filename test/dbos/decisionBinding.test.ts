import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ChatClient, createChatClient, type DurableChatEvent, startWorker, type Worker } from '@agentchart/dbos';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';
import { chats, closeLedger, LEDGER_TABLE_SQL } from './chatsModule.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/examples/bin/agentchart.mjs');

let server: TestPostgres;
let worker: Worker;
let client: ChatClient;
let db: pg.Pool;

beforeAll(async () => {
  server = await startTestPostgres();
  process.env.DBOS_DATABASE_URL = server.url;
  db = new pg.Pool({ connectionString: server.url, max: 2 });
  await db.query(LEDGER_TABLE_SQL);
  worker = await startWorker({ chats, executorId: 'binding-worker', workerConcurrency: 10 });
  client = await createChatClient();
}, 180_000);

afterAll(async () => {
  await client?.close();
  await worker?.stop();
  await closeLedger();
  await db?.end();
  await server?.stop();
}, 60_000);

/** The real `agentchart` command, its exit code and both streams. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [bin, ...args], {
      cwd: root,
      env: { ...process.env, DBOS_DATABASE_URL: server.url },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const payments = async (chatId: string) =>
  (
    await db.query<{ detail: string }>("SELECT detail FROM test_ledger WHERE tool = 'pay' AND idempotency_key LIKE $1 ORDER BY id", [`${chatId}/%`])
  ).rows.map((row) => row.detail);

async function allEvents(chatId: string): Promise<DurableChatEvent[]> {
  const events: DurableChatEvent[] = [];
  for await (const event of client.events(chatId)) events.push(event);
  return events;
}

describe('decisions bound to the wait they answer (DBOS)', () => {
  it("approving payer's call_1 twice at once never approves payer_b's call_1: the second is refused, payer_b still waits", async () => {
    const chatId = await client.enqueue('twoPayers', 'Pay.', { chatId: 'chat-two-payers-client' });
    const first = await client.waitForWaiting(chatId, { timeoutMs: 30_000 });
    expect(first).toMatchObject({ kind: 'approval', speaker: 'payer', requests: [{ id: 'call_1', arguments: { to: 'Bob', amount: 10 } }] });
    await Promise.all([client.approve(chatId, 'call_1'), client.approve(chatId, 'call_1')]);
    const second = await waitForSpeaker(chatId, 'payer_b');
    expect(second).toMatchObject({
      kind: 'approval',
      speaker: 'payer_b',
      requests: [{ id: 'call_1', arguments: { to: 'Mallory', amount: 50_000 } }],
    });
    expect(await payments(chatId)).toEqual(['Bob 10']);
    await client.reject(chatId, 'call_1', 'not approved');
    expect(await client.result(chatId)).toMatchObject({ reason: 'max-rounds', rounds: 2 });
    expect(await payments(chatId)).toEqual(['Bob 10']);
    const refused = (await allEvents(chatId)).filter((event) => event.type === 'control.refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ message: { type: 'approve', id: 'call_1', wait: first?.sequence } });
  }, 120_000);

  it("`agentchart approve` run twice for payer's wait (a retry) approves it once and exits non-zero the second time, saying why", async () => {
    const chatId = await client.enqueue('twoPayers', 'Pay.', { chatId: 'chat-two-payers-cli' });
    const first = await client.waitForWaiting(chatId, { timeoutMs: 30_000 });
    const wait = String(first?.sequence);
    const approved = await cli('approve', chatId, 'call_1', '--wait', wait);
    expect(approved).toMatchObject({ code: 0, stdout: `approved call_1 (wait ${wait} of ${chatId})\n` });
    await waitForSpeaker(chatId, 'payer_b');
    const again = await cli('approve', chatId, 'call_1', '--wait', wait);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`agentchart approve: Wait ${wait} of chat "${chatId}" is over`);
    expect(await payments(chatId)).toEqual(['Bob 10']);
    expect(await client.status(chatId)).toMatchObject({ waiting: { kind: 'approval', speaker: 'payer_b' } });
    await client.reject(chatId, 'call_1');
    await client.result(chatId);
    expect(await payments(chatId)).toEqual(['Bob 10']);
  }, 120_000);

  it('refuses, with a non-zero exit and a clear message, commands that match no current wait; nothing is queued for a later wait', async () => {
    const missing = await cli('approve', 'chat-that-never-was', 'call_1');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('agentchart approve: No chat "chat-that-never-was" in this database');

    const chatId = await client.enqueue('twoPayers', 'Pay.', { chatId: 'chat-two-payers-refusals' });
    await client.waitForWaiting(chatId, { timeoutMs: 30_000 });
    const cases: [string[], string][] = [
      [['approve', chatId, 'no-such-call'], 'Chat "chat-two-payers-refusals" waits for approval of call_1 by payer'],
      [['say', chatId, 'hello', '--as', 'nobody'], 'Chat "chat-two-payers-refusals" waits for approval of call_1 by payer'],
      [['record-result', chatId, 'call_1', '"done"'], 'Chat "chat-two-payers-refusals" waits for approval of call_1 by payer'],
    ];
    for (const [args, message] of cases) {
      const refused = await cli(...args);
      expect({ args, code: refused.code }).toEqual({ args, code: 1 });
      expect(refused.stderr).toContain(`agentchart ${args[0]}: ${message}`);
      expect(refused.stderr).not.toMatch(/CHAT_NOT_WAITING|WAIT_OVER/);
    }
    await expect(client.approve(chatId, 'no-such-call')).rejects.toMatchObject({ code: 'CHAT_NOT_WAITING' });
    await expect(client.select(chatId, 'payer_b')).rejects.toMatchObject({ code: 'CHAT_NOT_WAITING' });
    await expect(client.approve(chatId, 'call_1', { wait: 999 })).rejects.toMatchObject({ code: 'WAIT_OVER' });
    // Nothing refused reached the chat: payer still waits, and approving it does not approve payer_b's call_1 later.
    await client.approve(chatId, 'call_1');
    expect(await waitForSpeaker(chatId, 'payer_b')).toMatchObject({ kind: 'approval', speaker: 'payer_b' });
    await client.reject(chatId, 'call_1');
    await client.result(chatId);
    expect(await payments(chatId)).toEqual(['Bob 10']);
    expect((await allEvents(chatId)).filter((event) => event.type === 'control.refused')).toEqual([]);
  }, 180_000);
});

/** Waits until the chat waits for `speaker`'s approval (or ends: then returns null). */
async function waitForSpeaker(chatId: string, speaker: string) {
  for (;;) {
    const waiting = await client.waitForWaiting(chatId, { timeoutMs: 30_000 });
    if (waiting === null || (waiting.kind === 'approval' && waiting.speaker === speaker)) return waiting;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
