/**
 * Three worker processes (`agentchart worker`) on one queue of a local
 * Postgres run 300 four-agent chats and 6 chats that wait for an approval.
 * Halfway, one worker (one that holds a waiting chat) is killed with SIGKILL
 * and started again at once: it recovers its own chats. Later a second
 * worker is killed for good: the surviving workers notice its silence and
 * take its chats over. Then every approval is sent from another process
 * (`agentchart approve`). Every chat must finish exactly once, no tool call
 * may run twice (the ledger table counts executions), and every worker must
 * have finished chats.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createChatClient, type ChatClient } from '@agentchart/dbos';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../support/postgres/testPostgres.js';
import { LEDGER_TABLE_SQL } from './chatsModule.js';

const CHATS = 300;
const PAYMENTS = 6;
const TAKE_OVER_AFTER_MS = 12_000;
const BIN = 'packages/examples/bin/agentchart.mjs';

let server: TestPostgres;
let db: pg.Pool;
let client: ChatClient;
const workers = new Map<string, ChildProcess>();

function cli(args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { env: { ...process.env, DBOS_DATABASE_URL: server.url }, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function startWorkerProcess(executor: string): Promise<void> {
  const child = cli([
    'worker',
    '--module',
    'test/dbos/chatsModule.ts',
    '--executor',
    executor,
    '--concurrency',
    '40',
    '--take-over-after',
    String(TAKE_OVER_AFTER_MS),
  ]);
  workers.set(executor, child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${executor} did not start: ${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`worker ${executor} ready`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`worker ${executor} exited (${code}): ${output}`)));
  });
}

async function runCli(args: string[]): Promise<string> {
  const child = cli(args);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`agentchart ${args.join(' ')} exited ${code}: ${output}`);
  return output;
}

function kill(executor: string): Promise<void> {
  const child = workers.get(executor);
  workers.delete(executor);
  return new Promise((resolve) => {
    child?.once('exit', () => resolve());
    child?.kill('SIGKILL');
  });
}

const count = async (sql: string, params: unknown[] = []) => Number((await db.query<{ n: string }>(sql, params)).rows[0]?.n);
const finishedChats = () => count("SELECT count(*) AS n FROM dbos.workflow_status WHERE name = 'agentchart.chat' AND status = 'SUCCESS'");
const pendingOn = async (executor: string) =>
  (
    await db.query<{ id: string }>("SELECT workflow_uuid AS id FROM dbos.workflow_status WHERE executor_id = $1 AND status = 'PENDING'", [executor])
  ).rows.map((row) => row.id);

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  server = await startTestPostgres();
  db = new pg.Pool({ connectionString: server.url, max: 2 });
  await db.query(LEDGER_TABLE_SQL);
  await startWorkerProcess('worker-1'); // creates DBOS's schema
  await Promise.all([startWorkerProcess('worker-2'), startWorkerProcess('worker-3')]);
  client = await createChatClient({ databaseUrl: server.url });
}, 180_000);

afterAll(async () => {
  await client?.close();
  await Promise.all([...workers.keys()].map(kill));
  await db?.end();
  await server?.stop();
}, 60_000);

it('runs 300 four-agent chats on 3 worker processes through two SIGKILLs: each chat finishes once, no tool call runs twice', async () => {
  const started = Date.now();
  const payments = Array.from({ length: PAYMENTS }, (_, index) => `pay-${index}`);
  for (const chatId of payments) await client.enqueue('payment', 'Pay Bob 250.', { chatId });
  for (const chatId of payments)
    expect(await client.waitForWaiting(chatId, { timeoutMs: 60_000 })).toMatchObject({ kind: 'approval', requests: [{ id: 'call_1' }] });
  const paymentExecutors = new Map<string, string | undefined>();
  for (const chatId of payments) paymentExecutors.set(chatId, (await client.status(chatId)).executor);

  const chatIds = Array.from({ length: CHATS }, (_, index) => `four-${String(index).padStart(3, '0')}`);
  for (const chatId of chatIds) await client.enqueue('fourAgents', 'Take notes.', { chatId });

  // Halfway: kill a worker that holds a waiting payment, and start it again at once (it recovers its own chats).
  const restarted = paymentExecutors.get('pay-0') as string;
  await until(async () => (await finishedChats()) >= CHATS / 2, 240_000, 'half of the chats');
  await kill(restarted);
  const pendingAtFirstKill = await pendingOn(restarted);
  await startWorkerProcess(restarted);

  // Then kill another worker for good; the survivors take its chats over
  // (the one of the other two with more chats in flight right after the restart).
  const others = ['worker-1', 'worker-2', 'worker-3'].filter((id) => id !== restarted);
  let inFlight: string[][] = [];
  await until(
    async () => {
      inFlight = await Promise.all(others.map(pendingOn));
      return inFlight.some((ids) => ids.length > 0);
    },
    60_000,
    'chats in flight on another worker',
  );
  // Prefer a worker that holds a payment waiting for approval: it stays in flight until the approvals below, so the
  // abandoned worker surely has a chat to take over (a four-agent chat may finish between this check and the kill).
  const holdsPayment = inFlight.map((ids) => ids.some((id) => id.startsWith('pay-')));
  const busiest = holdsPayment[0] !== holdsPayment[1] ? (holdsPayment[0] ? 0 : 1) : inFlight[0]!.length >= inFlight[1]!.length ? 0 : 1;
  const abandoned = others[busiest] as string;
  await kill(abandoned);
  const pendingAtSecondKill = await pendingOn(abandoned); // read once it is dead (a chat may have finished just before), well before a take-over

  // Approvals from another process, once per chat.
  for (const chatId of payments) await runCli(['approve', chatId, 'call_1']);

  // A call in doubt (a kill while its tool ran) waits for a person: the person checks the ledger, records the result when it ran, approves otherwise.
  let inDoubt = 0;
  const all = [...payments, ...chatIds];
  await until(
    async () => {
      const open = (
        await db.query<{ id: string }>("SELECT workflow_uuid AS id FROM dbos.workflow_status WHERE name = 'agentchart.chat' AND status <> 'SUCCESS'")
      ).rows;
      for (const { id } of open) {
        const waiting = (await client.status(id)).waiting;
        if (waiting?.kind !== 'in-doubt') continue;
        inDoubt++;
        const key = waiting.id.replace('#', ':');
        const ran = await count('SELECT count(*) AS n FROM test_ledger WHERE idempotency_key = $1', [key]);
        await client.send(
          id,
          ran > 0 ? { type: 'record', id: waiting.id, result: 'ran before the crash (checked in the ledger)' } : { type: 'approve', id: waiting.id },
        );
      }
      return open.length === 0;
    },
    240_000,
    'every chat to finish',
  );
  const seconds = (Date.now() - started) / 1000;

  // Every chat finished exactly once: DBOS says SUCCESS, and the store wrote each chat's end once (version 1).
  expect(await count("SELECT count(*) AS n FROM dbos.workflow_status WHERE name = 'agentchart.chat' AND status = 'SUCCESS'")).toBe(all.length);
  expect(await count("SELECT count(*) AS n FROM agentchart_runs WHERE kind = 'chat' AND status = 'finished' AND version = 1")).toBe(all.length);
  // No tool call ran twice: one ledger row per call, 4 per four-agent chat, 2 per payment (pay and the checker's note), minus the in-doubt calls recorded by hand.
  const duplicates = await count(
    'SELECT count(*) AS n FROM (SELECT idempotency_key FROM test_ledger GROUP BY idempotency_key HAVING count(*) > 1) AS d',
  );
  expect(duplicates).toBe(0);
  expect(await count('SELECT count(DISTINCT idempotency_key) AS n FROM test_ledger')).toBe(CHATS * 4 + PAYMENTS * 2);
  expect(await count("SELECT count(*) AS n FROM test_ledger WHERE tool = 'pay'")).toBe(PAYMENTS);
  // The work was spread: every worker finished chats; the restarted one recovered chats it held, the survivors took the abandoned one's.
  const results = await Promise.all(all.map((chatId) => client.result(chatId)));
  const byExecutor = new Map<string, number>();
  for (const result of results) byExecutor.set(result.executor, (byExecutor.get(result.executor) ?? 0) + 1);
  for (const executor of ['worker-1', 'worker-2', 'worker-3']) expect(byExecutor.get(executor) ?? 0).toBeGreaterThan(0);
  const executorOf = new Map(results.map((result) => [result.chatId, result.executor]));
  // Chats in flight on a killed worker finished anyway: DBOS puts a restarted executor's chats back on a queue (any worker may take them),
  // and the abandoned worker's chats were taken over by the survivors (it never came back).
  expect(pendingAtFirstKill.length).toBeGreaterThan(0);
  expect(pendingAtFirstKill.every((id) => executorOf.has(id))).toBe(true);
  const recoveredByRestarted = pendingAtFirstKill.filter((id) => executorOf.get(id) === restarted).length;
  expect(pendingAtSecondKill.length).toBeGreaterThan(0);
  expect(pendingAtSecondKill.every((id) => executorOf.has(id))).toBe(true);
  // (a chat the abandoned worker had finished in the store just before DBOS recorded it keeps its summary, and so its executor)
  const takenOver = pendingAtSecondKill.filter((id) => executorOf.get(id) !== abandoned).length;
  expect(takenOver).toBeGreaterThan(0);
  // The payment waiting on the restarted worker survived the kill and finished after the approval.
  expect(results.find((result) => result.chatId === 'pay-0')).toMatchObject({ reason: 'max-rounds', rounds: 2, lastSpeaker: 'checker' });
  // Its events are readable from this process, with one end.
  const events: string[] = [];
  for await (const event of client.events('pay-0')) events.push(event.type);
  expect(events.filter((type) => type === 'chat.finished')).toHaveLength(1);

  console.log(
    `multi-process: chats ${all.length} (${CHATS} four-agent + ${PAYMENTS} approvals) · kills 2 (${restarted} restarted: ${pendingAtFirstKill.length} chats in flight, ${recoveredByRestarted} finished by it; ${abandoned} abandoned: ${pendingAtSecondKill.length} chats in flight, ${takenOver} finished by the others) · in-doubt ${inDoubt} · duplicates ${duplicates} · by worker ${JSON.stringify(Object.fromEntries(byExecutor))} · ${seconds.toFixed(1)} s`,
  );
}, 600_000);
