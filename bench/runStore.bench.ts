/**
 * The cost of durability, beside issue 14's target (a store adds less than
 * 0.5 ms to an agent step on SQLite). Per write: a checkpoint (`saveState`
 * of a ~3 KB snapshot), a journal start, a journal result; per tool step:
 * its writes as four separate transactions (how runs wrote before group
 * commit) and as the one transaction the run writer makes now
 * (`writeBatch`). On SQLite (a file, WAL, synchronous=NORMAL, then FULL)
 * and on a local Postgres started for the benchmark.
 *
 * Then W1 (bench/w1Workload.ts: one tool call per step, 20 steps a run)
 * with a SQLite store attached (`agent.run('go', { store })`: a checkpoint
 * after every step, every call journaled) beside W1 without one, in
 * alternating rounds in one process, with the store transactions per step.
 */
import type { RunStore } from '@agentchart/core';
import { createPostgresRunStore } from '@agentchart/store/postgres';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Agent, createAgent } from '@agentchart/actors';
import { startTestPostgres } from '../test/support/postgres/testPostgres.js';
import { STEPS_PER_RUN, w1Model, w1Tools } from './w1Workload.js';

/** A snapshot the size of a waiting run with ten messages. */
function checkpointState(step: number) {
  const messages = Array.from({ length: 10 }, (_, index) => ({
    role: index % 2 === 0 ? 'assistant' : 'tool',
    content: `Step ${index}: ${'lorem ipsum dolor sit amet '.repeat(10)}`,
  }));
  return {
    format: 'agentchart.run',
    version: 2,
    agent: 'payer',
    machine: { status: 'active', value: 'awaitingApproval', context: { step, messages } },
  };
}

/** The target of issue 14: what a store may add to one agent step on SQLite. */
const TARGET_US = 500;

const beside = (us: number) => `${us.toFixed(0).padStart(5)} µs (target < ${TARGET_US}: ${us < TARGET_US ? 'met' : 'not met'})`;

/** Microseconds per iteration of `body`, over `count` iterations. */
async function perIteration(count: number, body: (index: number) => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  for (let index = 0; index < count; index += 1) await body(index);
  return Number(process.hrtime.bigint() - start) / 1_000 / count;
}

/**
 * Each write alone, then a tool step's writes the two ways: as separate
 * writes (before group commit: the batch checkpoint, the call's start and
 * result, the batch-end checkpoint) and as the one transaction the run
 * writer now makes (`writeBatch`: the checkpoint, the previous call's
 * result, the next call's start). A new run every 20 steps, as in W1.
 */
async function measure(name: string, store: RunStore, steps: number): Promise<void> {
  const owner = 'bench';
  let lease = await store.createRun({ runId: `bench_${name}_${Date.now()}_warm`, kind: 'run', name: 'payer', owner, leaseMs: 600_000 });
  let runs = 0;
  const freshRun = async (step: number) => {
    if (step % STEPS_PER_RUN !== 0) return;
    runs += 1;
    lease = await store.createRun({ runId: `bench_${name}_${Date.now()}_${runs}`, kind: 'run', name: 'payer', owner, leaseMs: 600_000 });
  };
  const start = (callId: string) => ({ callId, toolName: 'pay', argumentsHash: 'sha256:x', idempotencyKey: `${lease.runId}:${callId}` });
  const result = { content: 'paid', isError: false };
  for (let step = 0; step < 50; step += 1) await store.saveState(lease, { status: 'running', state: checkpointState(step) }); // warm-up
  const bytes = JSON.stringify(checkpointState(0)).length;
  const checkpoint = await perIteration(steps, async (step) => {
    await freshRun(step);
    await store.saveState(lease, { status: 'running', state: checkpointState(step) });
  });
  const started = await perIteration(steps, async (step) => {
    await freshRun(step);
    await store.recordCallStarted(lease, start(`call_${step}`));
  });
  const finished = await perIteration(steps, async (step) => {
    await freshRun(step);
    await store.recordCallStarted(lease, start(`call_${step}`));
    await store.recordCallResult(lease, `call_${step}`, result);
  });
  const separate = await perIteration(steps, async (step) => {
    await freshRun(step);
    await store.saveState(lease, { status: 'running', state: checkpointState(step) });
    await store.recordCallStarted(lease, start(`call_${step}`));
    await store.recordCallResult(lease, `call_${step}`, result);
    await store.saveState(lease, { status: 'running', state: checkpointState(step) });
  });
  console.log(
    `${name.padEnd(11)} per write: checkpoint (${bytes} B) ${checkpoint.toFixed(0)} µs · journal start ${started.toFixed(0)} µs · ` +
      `journal result ${(finished - started).toFixed(0)} µs · ${steps} steps`,
  );
  console.log(`${''.padEnd(11)} per step, 4 separate writes (checkpoint, start, result, checkpoint): ${beside(separate)}`);
  if (typeof (store as Partial<RunStore>).writeBatch !== 'function') return;
  const batched = await perIteration(steps, async (step) => {
    await freshRun(step);
    const previous = step % STEPS_PER_RUN === 0 ? [] : [{ kind: 'result' as const, callId: `call_${step - 1}`, result }];
    await store.writeBatch(lease, {
      state: { status: 'running', state: checkpointState(step) },
      journal: [...previous, { kind: 'started', start: start(`call_${step}`) }],
    });
  });
  console.log(`${''.padEnd(11)} per step, 1 transaction (checkpoint + previous result + start):    ${beside(batched)}`);
}

/** Counts the store's transactions (each method call is one). */
function countingStore(store: RunStore): { store: RunStore; transactions: () => number } {
  let transactions = 0;
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (['saveState', 'recordCallStarted', 'recordCallResult', 'writeBatch'].includes(String(property))) transactions += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: counted, transactions: () => transactions };
}

/** W1 tool steps, with or without a store; µs per tool step (wall and CPU). */
async function w1(agent: Agent, toolSteps: number, store?: RunStore): Promise<{ wall: number; cpu: number }> {
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let done = 0; done < toolSteps; done += STEPS_PER_RUN) {
    const result = await agent.run('go', store === undefined ? {} : { store, owner: 'bench', leaseMs: 600_000 }).result;
    if (result.toolCalls.length !== STEPS_PER_RUN || result.stopReason !== 'completed') {
      throw new Error(`benchmark run went wrong: ${result.stopReason}, ${result.toolCalls.length} tool calls`);
    }
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: Number(process.hrtime.bigint() - started) / 1_000 / toolSteps, cpu: (cpu.user + cpu.system) / toolSteps };
}

async function w1WithAndWithoutStore(plain: RunStore): Promise<void> {
  const { store, transactions } = countingStore(plain);
  const agent = createAgent({ name: 'bench', model: w1Model(), tools: w1Tools, maxSteps: STEPS_PER_RUN + 1, instructions: 'Benchmark.' });
  await w1(agent, 1_000);
  await w1(agent, 200, store);
  const rounds: { without: { wall: number; cpu: number }; with: { wall: number; cpu: number } }[] = [];
  const before = transactions();
  let stored = 0;
  for (let round = 0; round < 3; round += 1) {
    rounds.push({ without: await w1(agent, 2_000), with: await w1(agent, 400, store) });
    stored += 400;
  }
  const perStep = (transactions() - before) / stored;
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  const wallWithout = rounds.map((round) => round.without.wall);
  const wallWith = rounds.map((round) => round.with.wall);
  const added = rounds.map((round) => round.with.wall - round.without.wall);
  const addedCpu = rounds.map((round) => round.with.cpu - round.without.cpu);
  console.log(
    `W1 without a store   ${range(wallWithout)} µs wall, ${range(rounds.map((round) => round.without.cpu))} µs CPU per tool step
` +
      `W1 with SQLite store ${range(wallWith)} µs wall, ${range(rounds.map((round) => round.with.cpu))} µs CPU per tool step ` +
      `(3 rounds, alternating; ${perStep.toFixed(2)} store transactions per tool step)
` +
      `  the store adds ${range(added)} µs wall, ${range(addedCpu)} µs CPU per tool step (target: < ${TARGET_US} µs per step on SQLite: ${Math.max(...added) < TARGET_US ? 'met' : Math.min(...added) < TARGET_US ? 'met in some rounds' : 'not met'})`,
  );
}

/** Steps of the long stored run, and how many of its first and last steps are compared. */
const LONG_RUN_STEPS = 200;
const COMPARED_STEPS = 20;

/**
 * A run of `LONG_RUN_STEPS` tool steps kept in `store`: the CPU per step of
 * its first `COMPARED_STEPS` steps and of its last ones (a step: from one
 * model request to the next), median over runs, and their ratio: whether a
 * stored step costs more as the run grows.
 */
async function longRun(store: RunStore): Promise<void> {
  const marks: number[] = [];
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  };
  const model = w1Model(LONG_RUN_STEPS, (position) => {
    marks[position] = cpuNow();
  });
  const agent = createAgent({ name: 'bench', model, tools: w1Tools, maxSteps: LONG_RUN_STEPS + 1, instructions: 'Benchmark.' });
  const first: number[] = [];
  const last: number[] = [];
  for (let run = 0; run < 8; run += 1) {
    marks.length = 0;
    const result = await agent.run('go', { store, owner: 'bench', leaseMs: 600_000 }).result;
    if (result.toolCalls.length !== LONG_RUN_STEPS) throw new Error(`benchmark run went wrong: ${result.toolCalls.length} tool calls`);
    if (run < 2) continue; // warm-up
    first.push((marks[COMPARED_STEPS]! - marks[0]!) / COMPARED_STEPS);
    last.push((marks[LONG_RUN_STEPS]! - marks[LONG_RUN_STEPS - COMPARED_STEPS]!) / COMPARED_STEPS);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const [head, tail] = [median(first), median(last)];
  console.log(
    `W1 stored run of ${LONG_RUN_STEPS} steps (SQLite): first ${COMPARED_STEPS} steps ${head.toFixed(0)} µs CPU per step, ` +
      `last ${COMPARED_STEPS} ${tail.toFixed(0)} µs: last/first ${(tail / head).toFixed(2)} (median of ${first.length} runs)`,
  );
}

export async function runBenchmark(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentchart-bench-store-'));
  try {
    const sqlite = await createSqliteRunStore({ path: join(dir, 'bench.db') });
    await measure('SQLite', sqlite, 1_000);
    await w1WithAndWithoutStore(sqlite);
    await longRun(sqlite);
    await sqlite.close();
    const full = await createSqliteRunStore({ path: join(dir, 'bench-full.db'), synchronous: 'full' });
    await measure('SQLite/FULL', full, 300);
    await full.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const server = await startTestPostgres();
  try {
    const postgres = await createPostgresRunStore({ connectionString: server.url });
    await measure('Postgres', postgres, 600);
    await postgres.close();
  } finally {
    await server.stop();
  }
  console.log('(the test Postgres runs with fsync=off; a production server with fsync adds its commit latency)');
}
