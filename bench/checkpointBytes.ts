/**
 * Bytes a stored run writes per tool step, over a 200-step run of W1's tools
 * (a zero-latency scripted model, one tool call per step): the JSON of each
 * checkpoint (whole or delta) and of each journal write, summed per step,
 * the first 20 steps against the last 20. It measures bytes, not time, so it
 * can run beside other work:
 *
 *   npx tsx bench/checkpointBytes.ts
 *
 * It runs the same run twice: on the SQLite store as it is (checkpoints as
 * deltas) and on the same store taking no deltas (every checkpoint whole, as
 * a store without `stateDeltas` writes them); then a chat of two agents,
 * 40 turns of one tool step each, the same two ways (bytes per checkpoint).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createGroupChat } from '@agentchart/actors';
import type { RunLease, RunStore, RunWriteBatch } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { w1Tools } from './w1Workload.js';

const STEPS = 200;
const WINDOW = 20;

const turns = [
  { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] },
  { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
  { toolCalls: [{ name: 'tag', arguments: { item: 'x', tags: ['a', 'b'] } }] },
];

/** Bytes written per step: a batch counts toward the step whose call it starts (or the last one started). */
async function bytesPerStep(deltas: boolean, path: string): Promise<number[]> {
  const store = await createSqliteRunStore({ path });
  const perStep: number[] = [];
  let step = 0;
  const measured: RunStore = new Proxy(store, {
    get(target, property) {
      if (property === 'stateDeltas') return deltas;
      if (property === 'writeBatch') {
        return (lease: RunLease, batch: RunWriteBatch) => {
          for (const write of batch.journal ?? []) if (write.kind === 'started') step += 1;
          const bytes = Buffer.byteLength(JSON.stringify(batch.state ?? null)) + Buffer.byteLength(JSON.stringify(batch.journal ?? []));
          const at = Math.max(1, step);
          perStep[at - 1] = (perStep[at - 1] ?? 0) + bytes;
          return target.writeBatch(lease, batch);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const agent = createAgent({
    name: 'w1',
    model: scriptedModel((_request, index) => (index < STEPS ? turns[index % 3]! : { text: 'done' }), { recordRequests: false }),
    tools: w1Tools,
    maxSteps: STEPS + 1,
  });
  const run = agent.run('Go.', { store: measured, runId: `bytes-${deltas ? 'deltas' : 'whole'}` });
  await run.result;
  await store.close();
  return perStep.slice(0, STEPS);
}

/** Bytes of each checkpoint a chat of two agents writes over `TURNS` turns (each one tool step, then an answer). */
async function chatCheckpointBytes(deltas: boolean, path: string): Promise<number[]> {
  const store = await createSqliteRunStore({ path });
  const sizes: number[] = [];
  const measured: RunStore = new Proxy(store, {
    get(target, property) {
      if (property === 'stateDeltas') return deltas;
      if (property === 'writeBatch') {
        return (lease: RunLease, batch: RunWriteBatch) => {
          if (batch.state !== undefined) sizes.push(Buffer.byteLength(JSON.stringify(batch.state)));
          return target.writeBatch(lease, batch);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const agent = (name: string) =>
    createAgent({
      name,
      model: scriptedModel((request) =>
        request.messages.at(-1)?.role === 'tool' ? { text: `${name} done` } : { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] },
      ),
      tools: w1Tools,
    });
  const chat = createGroupChat({ name: 'pair', agents: [agent('a'), agent('b')], speakerSelection: 'round_robin', maxRounds: TURNS });
  await chat.run('Go.', { store: measured, chatId: `bytes-chat-${deltas ? 'deltas' : 'whole'}` }).result;
  await store.close();
  return sizes;
}

const TURNS = 40;

const average = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const directory = mkdtempSync(join(tmpdir(), 'agentchart-bytes-'));
try {
  for (const deltas of [false, true]) {
    const perStep = await bytesPerStep(deltas, join(directory, `${deltas ? 'deltas' : 'whole'}.db`));
    const first = average(perStep.slice(0, WINDOW));
    const last = average(perStep.slice(-WINDOW));
    const label = deltas ? 'deltas (this store)' : 'whole checkpoints';
    console.log(
      `${label.padEnd(20)} bytes per step: first ${WINDOW} ${first.toFixed(0).padStart(7)}, last ${WINDOW} ${last.toFixed(0).padStart(7)}, last/first ${(last / first).toFixed(2)}×, total ${perStep.reduce((sum, value) => sum + value, 0)}`,
    );
  }
  for (const deltas of [false, true]) {
    const sizes = await chatCheckpointBytes(deltas, join(directory, `chat-${deltas ? 'deltas' : 'whole'}.db`));
    const first = average(sizes.slice(0, WINDOW));
    const last = average(sizes.slice(-WINDOW));
    const label = deltas ? 'chat, deltas' : 'chat, whole';
    console.log(
      `${label.padEnd(20)} bytes per checkpoint (${TURNS} turns): first ${WINDOW} ${first.toFixed(0).padStart(7)}, last ${WINDOW} ${last.toFixed(0).padStart(7)}, last/first ${(last / first).toFixed(2)}×`,
    );
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
