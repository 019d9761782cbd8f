/**
 * Scale-out: four-agent chats (4 turns, 8 model calls, 4 tool calls each) at
 * 10 ms model latency, run as DBOS workflows by `agentchart worker`
 * processes on a local Postgres (fsync off). Prints chats per second with 1
 * and 2 workers, Postgres transactions and rows written per turn, the CPU
 * per turn of the workers, and the latency a turn gains against the same
 * chat run in-process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createChatClient } from '@agentchart/dbos';
import pg from 'pg';
import { startTestPostgres } from '../test/support/postgres/testPostgres.js';

const LATENCY_MS = 10;
const TURNS_PER_CHAT = 4;
const BIN = 'packages/examples/bin/agentchart.mjs';

interface WorkerProcess {
  child: ChildProcess;
  executor: string;
}

function startWorker(url: string, executor: string): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [BIN, 'worker', '--module', 'test/dbos/chatsModule.ts', '--executor', executor, '--concurrency', '100'], {
    env: { ...process.env, DBOS_DATABASE_URL: url, AGENTCHART_MODEL_LATENCY_MS: String(LATENCY_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve({ child, executor });
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${output}`)));
  });
}

async function stopWorker(worker: WorkerProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    worker.child.once('exit', () => resolve());
    worker.child.kill('SIGTERM');
  });
}

/** CPU seconds (user + system) of a process so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
}

async function writes(db: pg.Pool): Promise<{ commits: number; rows: number }> {
  await new Promise((resolve) => setTimeout(resolve, 1_500)); // backends report their statistics at most once a second
  const { rows } = await db.query<{ commits: string; rows: string }>(
    'SELECT xact_commit AS commits, tup_inserted + tup_updated + tup_deleted AS rows FROM pg_stat_database WHERE datname = current_database()',
  );
  return { commits: Number(rows[0]!.commits), rows: Number(rows[0]!.rows) };
}

async function throughput(url: string, db: pg.Pool, workers: number, chats: number, tag: string) {
  const processes = await Promise.all(Array.from({ length: workers }, (_, index) => startWorker(url, `${tag}-${index + 1}`)));
  const client = await createChatClient({ databaseUrl: url });
  try {
    const before = await writes(db);
    const cpuBefore = processes.map((worker) => cpuSeconds(worker.child.pid as number));
    const started = performance.now();
    const ids = [];
    for (let index = 0; index < chats; index++) ids.push(await client.enqueue('fourAgents', 'Take notes.', { chatId: `${tag}-${index}` }));
    await Promise.all(ids.map((id) => client.result(id)));
    const seconds = (performance.now() - started) / 1000;
    const cpu = processes.reduce((sum, worker, index) => sum + cpuSeconds(worker.child.pid as number) - (cpuBefore[index] as number), 0);
    const after = await writes(db);
    const turns = chats * TURNS_PER_CHAT;
    return {
      chatsPerSecond: chats / seconds,
      commitsPerTurn: (after.commits - before.commits) / turns,
      rowsPerTurn: (after.rows - before.rows) / turns,
      cpuMsPerTurn: (cpu * 1000) / turns,
    };
  } finally {
    await client.close();
    await Promise.all(processes.map(stopWorker));
  }
}

/**
 * One chat at a time: in this process (no workflow), and as a workflow on an
 * idle worker — from its start on the worker to its end, as DBOS records
 * them (the queue's pick-up and the client's polling for the result are
 * left out: they are intervals, not work).
 */
async function singleChatLatency(url: string, db: pg.Pool, runs: number): Promise<{ inProcess: number; durable: number; endToEnd: number }> {
  const { chats, closeLedger } = await import('../test/dbos/chatsModule.js');
  const worker = await startWorker(url, 'latency-1');
  const client = await createChatClient({ databaseUrl: url });
  const inProcess: number[] = [];
  const durable: number[] = [];
  const endToEnd: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      await chats.fourAgents.run('Take notes.', { chatId: `local-${run}` }).result;
      inProcess.push(performance.now() - started);
      started = performance.now();
      await client.result(await client.enqueue('fourAgents', 'Take notes.', { chatId: `latency-${run}` }));
      endToEnd.push(performance.now() - started);
      const { rows } = await db.query<{ ms: string }>(
        'SELECT completed_at - started_at_epoch_ms AS ms FROM dbos.workflow_status WHERE workflow_uuid = $1',
        [`latency-${run}`],
      );
      durable.push(Number(rows[0]!.ms));
    }
  } finally {
    await client.close();
    await stopWorker(worker);
    await closeLedger();
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return { inProcess: median(inProcess), durable: median(durable), endToEnd: median(endToEnd) };
}

export async function runBenchmark(): Promise<void> {
  const server = await startTestPostgres();
  process.env.DBOS_DATABASE_URL = server.url; // the chats module's ledger, and its models' latency, read at import
  process.env.AGENTCHART_MODEL_LATENCY_MS = String(LATENCY_MS);
  const db = new pg.Pool({ connectionString: server.url, max: 2 });
  try {
    const { LEDGER_TABLE_SQL } = await import('../test/dbos/chatsModule.js');
    await db.query(LEDGER_TABLE_SQL);
    const warm = await startWorker(server.url, 'warm-up'); // creates DBOS's schema
    await stopWorker(warm);
    const chats = Number(process.env.SCALE_OUT_CHATS ?? 200);
    const one = await throughput(server.url, db, 1, chats, 'one');
    const two = await throughput(server.url, db, 2, chats, 'two');
    for (const [name, figures] of [
      ['1 worker ', one],
      ['2 workers', two],
    ] as const) {
      console.log(
        `${name}: ${figures.chatsPerSecond.toFixed(1)} chats/s (${(figures.chatsPerSecond * TURNS_PER_CHAT).toFixed(0)} turns/s) · ${figures.commitsPerTurn.toFixed(1)} Postgres transactions/turn (reads and queue polling included) · ${figures.rowsPerTurn.toFixed(1)} rows written/turn · worker CPU ${figures.cpuMsPerTurn.toFixed(2)} ms/turn · ${chats} chats, ${LATENCY_MS} ms model latency`,
      );
    }
    const latency = await singleChatLatency(server.url, db, 7);
    console.log(
      `one chat alone (median of 7): in-process ${latency.inProcess.toFixed(0)} ms · as a DBOS workflow ${latency.durable.toFixed(0)} ms from start to end on the worker (added ${((latency.durable - latency.inProcess) / TURNS_PER_CHAT).toFixed(1)} ms/turn) · ${latency.endToEnd.toFixed(0)} ms from enqueue to the client's result (queue pick-up and result polling included)`,
    );
    console.log('(test Postgres on loopback with fsync=off, sharing the 2 cores with the workers; a turn = one agent: 2 model calls, 1 tool call)');
  } finally {
    await db.end();
    await server.stop();
  }
}
