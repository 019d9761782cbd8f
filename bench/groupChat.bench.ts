/**
 * G1: heap retained per idle 4-agent group chat — created (configuration
 * only), and running but idle (waiting for a manual speaker choice: the
 * manager actor, its shared-state actor, the bus and its bridges).
 * G2: 1,000 concurrent 4-agent chats of 4 rounds each on a scripted model
 * with 10 ms latency per reply; throughput as a fraction of the latency bound
 * (the wall time if every chat only waited on its model: rounds × 10 ms), and
 * process CPU time per turn (creating the chats is not counted), plain and
 * inspected (an inspector that only counts what it sees). After a warm-up,
 * each figure is the median of several runs.
 */
import { type GroupChat, type GroupChatRun, createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { collectGarbage, heapUsed } from './heapUsed.js';

const IDLE_CHATS = 2_000;
const CONCURRENT_CHATS = 1_000;
const ROUNDS = 4;
const LATENCY_MS = 10;
const NAMES = ['planner', 'researcher', 'critic', 'writer'];

let inspected = 0;
const inspect = () => {
  inspected += 1;
};

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
  console.log(
    `G1 heap per idle 4-agent chat, created: ${perChat(before, after, IDLE_CHATS)} KiB (${IDLE_CHATS} chats, agents included)\n` +
      '  target: ≤ 3.4 KiB',
  );

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
async function concurrentChats(count: number, watched = false): Promise<{ wallMs: number; cpuUs: number; turns: number }> {
  const chats = Array.from({ length: count }, () => fourAgentChat(LATENCY_MS, 'round_robin'));
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const results = await Promise.all(chats.map((chat) => chat.run('Plan the launch.', watched ? { inspect } : {}).result));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  const turns = results.reduce((sum, result) => sum + result.rounds, 0);
  if (turns !== count * ROUNDS) throw new Error(`benchmark chats went wrong: ${turns} turns`);
  return { wallMs, cpuUs: cpu.user + cpu.system, turns };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function runBenchmark(): Promise<void> {
  await idleChats();
  collectGarbage(); // G1's chats go now, not during G2's runs.
  // Warm-up: until the JIT has settled, the first runs cost up to twice as much CPU per turn.
  for (let round = 0; round < 3; round++) await concurrentChats(CONCURRENT_CHATS / 2);
  // The median of several runs: one garbage collection more or less moves a single run's figures by 10-20%.
  for (const [count, runs] of [
    [100, 9],
    [CONCURRENT_CHATS, 5],
  ] as const) {
    for (const watched of [false, true]) {
      if (watched) for (let round = 0; round < 2; round++) await concurrentChats(count, true);
      const samples = [];
      for (let run = 0; run < runs; run++) samples.push(await concurrentChats(count, watched));
      const wallMs = median(samples.map((sample) => sample.wallMs));
      const cpuPerTurn = median(samples.map((sample) => sample.cpuUs / sample.turns));
      const boundMs = ROUNDS * LATENCY_MS;
      console.log(
        `G2 ${watched ? 'inspected' : 'plain'} ${count} concurrent chats × ${ROUNDS} rounds, ${LATENCY_MS} ms model latency (median of ${runs} runs): ` +
          `${wallMs.toFixed(0)} ms wall (latency bound ${boundMs} ms) → ${((100 * boundMs) / wallMs).toFixed(1)}% of the bound; ` +
          `${Math.round((count * ROUNDS * 1000) / wallMs)} turns/s; ${cpuPerTurn.toFixed(0)} µs CPU per turn`,
      );
    }
    if (count === CONCURRENT_CHATS) {
      console.log(
        `  (${inspected} inspection events) target: CPU per turn ≥ 1.5× less than the best peer's in one peers-bench run (aim for 2.5×), ` +
          'every turn stepping an agent actor',
      );
    }
  }
}
