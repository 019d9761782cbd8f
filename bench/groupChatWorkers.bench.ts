/**
 * G2 on both cores: the same 1,000 concurrent 4-agent chats of 4 rounds with
 * 10 ms scripted latency as `groupChat`, split over one worker thread per
 * core. One Node thread runs JavaScript on one core; this is how a user runs
 * many chats on all of a machine's cores (each worker builds its own chats:
 * tools and models are code and stay in their thread). Throughput is a
 * fraction of the latency bound, as in `groupChat`.
 */
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';

const CONCURRENT_CHATS = 1_000;
const ROUNDS = 4;
const LATENCY_MS = 10;
const NAMES = ['planner', 'researcher', 'critic', 'writer'];

interface WorkerOrder {
  chats: number;
}

/** What a worker reports after its share of chats. */
interface WorkerReport {
  turns: number;
}

function fourAgentChat() {
  const model = scriptedModel(() => ({ text: 'ok' }), { latencyMs: LATENCY_MS, recordRequests: false });
  return createGroupChat({
    agents: NAMES.map((name) => createAgent({ name, model, instructions: `You are the ${name}.` })),
    speakerSelection: 'round_robin',
    maxRounds: ROUNDS,
  });
}

async function runChats(count: number): Promise<number> {
  const chats = Array.from({ length: count }, fourAgentChat);
  const results = await Promise.all(chats.map((chat) => chat.run('Plan the launch.').result));
  return results.reduce((sum, result) => sum + result.rounds, 0);
}

/** Warm-up rounds before the timed ones: the first runs cost up to twice as much while the JIT settles. */
const WARMUP_ROUNDS = 5;
const TIMED_ROUNDS = 3;

/** A worker: warm up, then run its share of chats each time the main thread says `go`, and report. */
async function serveAsWorker(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('groupChatWorkers: no parent port in the worker');
  const { chats } = workerData as WorkerOrder;
  for (let round = 0; round < WARMUP_ROUNDS; round++) await runChats(chats);
  port.on('message', () => {
    void runChats(chats).then((turns) => port.postMessage({ turns } satisfies WorkerReport));
  });
  port.postMessage('ready');
}

/** A worker thread and the reports it sends, one per round. */
function startWorker(chats: number): { worker: Worker; ready: Promise<void>; nextReport(): Promise<WorkerReport> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { chats } satisfies WorkerOrder });
  const waiting: ((report: WorkerReport) => void)[] = [];
  let failed: ((error: Error) => void) | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    failed = reject;
    worker.on('message', (message: 'ready' | WorkerReport) => (message === 'ready' ? resolve() : waiting.shift()?.(message)));
  });
  worker.on('error', (error) => failed?.(error));
  return { worker, ready, nextReport: () => new Promise((resolve) => waiting.push(resolve)) };
}

export async function runBenchmark(): Promise<void> {
  if (!isMainThread) return serveAsWorker();
  const threads = Math.max(1, availableParallelism());
  const share = Math.ceil(CONCURRENT_CHATS / threads);
  const workers = Array.from({ length: threads }, () => startWorker(share));
  await Promise.all(workers.map(({ ready }) => ready));
  const rounds: { wallMs: number; cpuUs: number; turns: number }[] = [];
  for (let round = 0; round < TIMED_ROUNDS; round++) {
    const reports = workers.map(({ nextReport }) => nextReport());
    const started = performance.now();
    // Process CPU time: every thread's, the workers' and the garbage collector's.
    const cpuStart = process.cpuUsage();
    for (const { worker } of workers) worker.postMessage('go');
    const turns = (await Promise.all(reports)).reduce((sum, report) => sum + report.turns, 0);
    const cpu = process.cpuUsage(cpuStart);
    rounds.push({ wallMs: performance.now() - started, cpuUs: cpu.user + cpu.system, turns });
    if (turns !== share * threads * ROUNDS) throw new Error(`benchmark chats went wrong: ${turns} turns`);
  }
  await Promise.all(workers.map(({ worker }) => worker.terminate()));
  const { wallMs, cpuUs, turns } = rounds.sort((a, b) => a.wallMs - b.wallMs)[Math.floor(TIMED_ROUNDS / 2)] as (typeof rounds)[number];
  const boundMs = ROUNDS * LATENCY_MS;
  console.log(
    `G2 on ${threads} worker threads: ${share * threads} concurrent chats × ${ROUNDS} rounds, ${LATENCY_MS} ms model latency ` +
      `(median of ${TIMED_ROUNDS} runs after ${WARMUP_ROUNDS} warm-up runs): ` +
      `${wallMs.toFixed(0)} ms wall (latency bound ${boundMs} ms) → ${((100 * boundMs) / wallMs).toFixed(1)}% of the bound; ` +
      `${Math.round((turns * 1000) / wallMs)} turns/s; ${(cpuUs / turns).toFixed(0)} µs CPU per turn (all threads)`,
  );
}
