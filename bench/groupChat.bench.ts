/**
 * G1: heap retained per idle 4-agent group chat — created (configuration
 * only), and running but idle (waiting for a manual speaker choice: the
 * manager actor, its shared-state actor, the bus and its bridges).
 * G2: 1,000 concurrent 4-agent chats of 4 rounds each on a scripted model
 * with 10 ms latency per reply; throughput as a fraction of the latency bound
 * (the wall time if every chat only waited on its model: rounds × 10 ms).
 */
import { type GroupChat, type GroupChatRun, createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { heapUsed } from './heapUsed.js';

const IDLE_CHATS = 2_000;
const CONCURRENT_CHATS = 1_000;
const ROUNDS = 4;
const LATENCY_MS = 10;
const NAMES = ['planner', 'researcher', 'critic', 'writer'];

function fourAgentChat(latencyMs: number, speakerSelection: 'round_robin' | 'manual'): GroupChat {
  const model = scriptedModel(() => ({ text: 'ok' }), { latencyMs, recordRequests: false });
  return createGroupChat({
    agents: NAMES.map((name) => createAgent({ name, model, instructions: `You are the ${name}.` })),
    speakerSelection,
    maxRounds: ROUNDS,
  });
}

const perChat = (before: number, after: number, count: number) => ((after - before) / count / 1024).toFixed(1);

async function idleChats(): Promise<void> {
  let before = heapUsed();
  const chats = Array.from({ length: IDLE_CHATS }, () => fourAgentChat(0, 'manual'));
  let after = heapUsed();
  console.log(`G1 heap per idle 4-agent chat, created: ${perChat(before, after, IDLE_CHATS)} KiB (target < 40 KiB; ${IDLE_CHATS} chats, agents included)`);

  before = heapUsed();
  const runs: GroupChatRun[] = chats.map((chat) => chat.run('Plan the launch.'));
  await new Promise((resolve) => setTimeout(resolve, 10));
  after = heapUsed();
  const waiting = runs.filter((run) => run.waiting()?.kind === 'choice').length;
  console.log(`G1 heap per idle 4-agent chat, running (waiting for a choice): ${perChat(before, after, IDLE_CHATS)} KiB more (${waiting} waiting)`);
  for (const run of runs) run.abort();
  await Promise.all(runs.map((run) => run.result));
}

/** Runs `count` chats at once; wall and CPU time are those of the runs (creating the chats is not counted). */
async function concurrentChats(count: number): Promise<{ wallMs: number; cpuUs: number; turns: number }> {
  const chats = Array.from({ length: count }, () => fourAgentChat(LATENCY_MS, 'round_robin'));
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(chats.map((chat) => chat.run('Plan the launch.').result));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const turns = results.reduce((sum, result) => sum + result.rounds, 0);
  if (turns !== count * ROUNDS) throw new Error(`benchmark chats went wrong: ${turns} turns`);
  return { wallMs, cpuUs: cpu.user + cpu.system, turns };
}

export async function runBenchmark(): Promise<void> {
  await idleChats();
  await concurrentChats(200);
  for (const count of [100, CONCURRENT_CHATS]) {
    const { wallMs, cpuUs, turns } = await concurrentChats(count);
    const boundMs = ROUNDS * LATENCY_MS;
    console.log(
      `G2 ${count} concurrent chats × ${ROUNDS} rounds, ${LATENCY_MS} ms model latency: ${wallMs.toFixed(0)} ms wall ` +
        `(latency bound ${boundMs} ms) → ${((100 * boundMs) / wallMs).toFixed(1)}% of the bound (target ≥ 90% at ${CONCURRENT_CHATS}); ` +
        `${Math.round((turns * 1000) / wallMs)} turns/s; ${(cpuUs / turns).toFixed(0)} µs CPU per turn`,
    );
  }
}
