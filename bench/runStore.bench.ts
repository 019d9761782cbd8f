/**
 * The cost of durability: one checkpoint (`saveState` of a waiting run's
 * snapshot, ~4 KB of JSON) and one journaled tool call (`recordCallStarted`
 * + `recordCallResult`), on SQLite (a file, WAL, synchronous=NORMAL) and on
 * a local Postgres started for the benchmark. Target: a checkpoint under
 * 0.5 ms per step on SQLite.
 */
import type { RunStore } from '@agentchart/core';
import { createPostgresRunStore } from '@agentchart/store/postgres';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestPostgres } from '../test/support/postgres/testPostgres.js';

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

export async function runBenchmark(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'agentchart-bench-store-'));
  try {
    const sqlite = await createSqliteRunStore({ path: join(dir, 'bench.db') });
    await measure('SQLite', sqlite, 2_000);
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
