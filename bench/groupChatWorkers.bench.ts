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

/** A worker: warm up, wait for the start signal, run its share, report. */
async function serveAsWorker(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('groupChatWorkers: no parent port in the worker');
  const { chats } = workerData as WorkerOrder;
  await runChats(Math.min(chats, 200));
  port.postMessage('ready');
  await new Promise((resolve) => port.once('message', resolve));
  port.postMessage({ turns: await runChats(chats) } satisfies WorkerReport);
}

function startWorker(chats: number): { worker: Worker; ready: Promise<void>; report: Promise<WorkerReport> } {
  const worker = new Worker(new URL(import.meta.url), { workerData: { chats } satisfies WorkerOrder });
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const report = new Promise<WorkerReport>((resolve, reject) => {
    worker.on('message', (message: 'ready' | WorkerReport) => (message === 'ready' ? markReady() : resolve(message)));
    worker.on('error', reject);
  });
  return { worker, ready, report };
}

export async function runBenchmark(): Promise<void> {
  if (!isMainThread) return serveAsWorker();
  const threads = Math.max(1, availableParallelism());
  const share = Math.ceil(CONCURRENT_CHATS / threads);
  const workers = Array.from({ length: threads }, () => startWorker(share));
  await Promise.all(workers.map(({ ready }) => ready));
  const started = performance.now();
  // Process CPU time: every thread's, the workers' and the garbage collector's.
  const cpuStart = process.cpuUsage();
  for (const { worker } of workers) worker.postMessage('go');
  const reports = await Promise.all(workers.map(({ report }) => report));
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuStart);
  await Promise.all(workers.map(({ worker }) => worker.terminate()));
  const turns = reports.reduce((sum, report) => sum + report.turns, 0);
  if (turns !== share * threads * ROUNDS) throw new Error(`benchmark chats went wrong: ${turns} turns`);
  const boundMs = ROUNDS * LATENCY_MS;
  console.log(
    `G2 on ${threads} worker threads: ${share * threads} concurrent chats × ${ROUNDS} rounds, ${LATENCY_MS} ms model latency: ` +
      `${wallMs.toFixed(0)} ms wall (latency bound ${boundMs} ms) → ${((100 * boundMs) / wallMs).toFixed(1)}% of the bound; ` +
      `${Math.round((turns * 1000) / wallMs)} turns/s; ${((cpu.user + cpu.system) / turns).toFixed(0)} µs CPU per turn (all threads)`,
  );
}
