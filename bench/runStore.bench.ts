/**
 * The cost of durability: one checkpoint (`saveState` of a waiting run's
 * snapshot, ~4 KB of JSON) and one journaled tool call (`recordCallStarted`
 * + `recordCallResult`), on SQLite (a file, WAL, synchronous=NORMAL) and on
 * a local Postgres started for the benchmark. Target: a checkpoint under
 * 0.5 ms per step on SQLite.
 *
 * Then W1 (bench/w1Workload.ts: one tool call per step, 20 steps a run)
 * with a SQLite store attached (`agent.run('go', { store })`: a checkpoint
 * after every step, every call journaled) beside W1 without one, in
 * alternating rounds in one process.
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

async function measure(name: string, store: RunStore, steps: number): Promise<void> {
  const runId = `bench_${name}_${Date.now()}`;
  const lease = await store.createRun({ runId, kind: 'run', name: 'payer', owner: 'bench', leaseMs: 600_000 });
  for (let step = 0; step < 50; step += 1) await store.saveState(lease, { status: 'running', state: checkpointState(step) }); // warm-up
  const bytes = JSON.stringify(checkpointState(0)).length;
  let start = process.hrtime.bigint();
  for (let step = 0; step < steps; step += 1) await store.saveState(lease, { status: 'running', state: checkpointState(step) });
  const checkpoint = Number(process.hrtime.bigint() - start) / 1_000 / steps;
  start = process.hrtime.bigint();
  for (let call = 0; call < steps; call += 1) {
    const callId = `call_${call}`;
    await store.recordCallStarted(lease, { callId, toolName: 'pay', argumentsHash: 'sha256:x', idempotencyKey: `${runId}:${callId}` });
    await store.recordCallResult(lease, callId, { content: 'paid', isError: false });
  }
  const journal = Number(process.hrtime.bigint() - start) / 1_000 / steps;
  console.log(
    `${name.padEnd(9)} checkpoint (${bytes} B) ${checkpoint.toFixed(0).padStart(5)} µs/step · journaled call (start + result) ${journal.toFixed(0).padStart(5)} µs/call · ${steps} steps`,
  );
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

async function w1WithAndWithoutStore(store: RunStore): Promise<void> {
  const agent = createAgent({ name: 'bench', model: w1Model(), tools: w1Tools, maxSteps: STEPS_PER_RUN + 1, instructions: 'Benchmark.' });
  await w1(agent, 1_000);
  await w1(agent, 200, store);
  const rounds: { without: { wall: number; cpu: number }; with: { wall: number; cpu: number } }[] = [];
  for (let round = 0; round < 3; round += 1) rounds.push({ without: await w1(agent, 2_000), with: await w1(agent, 400, store) });
  const range = (values: number[]) => `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  const wallWithout = rounds.map((round) => round.without.wall);
  const wallWith = rounds.map((round) => round.with.wall);
  const added = rounds.map((round) => round.with.wall - round.without.wall);
  console.log(
    `W1 without a store   ${range(wallWithout)} µs wall, ${range(rounds.map((round) => round.without.cpu))} µs CPU per tool step
` +
      `W1 with SQLite store ${range(wallWith)} µs wall, ${range(rounds.map((round) => round.with.cpu))} µs CPU per tool step ` +
      `(3 rounds, alternating; per step: the batch checkpoint, the call's journal start + result, the batch-end checkpoint)
` +
      `  the store adds ${range(added)} µs per tool step (target: a checkpoint < 500 µs per step on SQLite)`,
  );
}

export async function runBenchmark(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentchart-bench-store-'));
  try {
    const sqlite = await createSqliteRunStore({ path: join(dir, 'bench.db') });
    await measure('SQLite', sqlite, 2_000);
    await w1WithAndWithoutStore(sqlite);
    await sqlite.close();
    const full = await createSqliteRunStore({ path: join(dir, 'bench-full.db'), synchronous: 'full' });
    await measure('SQLite/FULL', full, 500);
    await full.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const server = await startTestPostgres();
  try {
    const postgres = await createPostgresRunStore({ connectionString: server.url });
    await measure('Postgres', postgres, 1_000);
    await postgres.close();
  } finally {
    await server.stop();
  }
  console.log('(the test Postgres runs with fsync=off; a production server with fsync adds its commit latency)');
}
