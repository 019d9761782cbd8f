/**
 * A run's fixed cost: CPU and bytes allocated per agent run, with a new
 * agent per run (as peers-bench's W1 makes one), for a run whose model
 * answers at once (no tool step) and for a W1 run (20 tool steps and an
 * answer). What a step-less run costs is what every run pays before its
 * first tool step: the agent's creation, its actor, the start and answer
 * macrosteps, the run handle (docs/performance.md, "Fifth session").
 *
 * Bytes allocated are measured as the heap's growth over batches of 20 runs
 * between forced collections; a batch during which a scavenge ran is
 * dropped (a `gc` performance entry), and the median batch is printed.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { collectGarbage } from './heapUsed.js';
import { STEPS_PER_RUN, w1Model, w1Tools as tools } from './w1Workload.js';

const WARMUP_RUNS = 500;
const TIMED_RUNS = { stepless: 3_000, w1: 1_000 };
const BATCHES = 30;
const RUNS_PER_BATCH = 20;

type Workload = 'stepless' | 'w1';

async function runOnce(workload: Workload): Promise<void> {
  const model = workload === 'w1' ? w1Model() : scriptedModel(() => ({ text: 'done' }), { recordRequests: false });
  const agent = createAgent({ name: 'bench', model, tools, maxSteps: STEPS_PER_RUN + 1, instructions: 'Benchmark.' });
  const result = await agent.run('go').result;
  const steps = workload === 'w1' ? STEPS_PER_RUN : 0;
  if (result.toolCalls.length !== steps || result.stopReason !== 'completed') {
    throw new Error(`benchmark run went wrong: ${result.stopReason}, ${result.toolCalls.length} tool calls`);
  }
}

/** The median heap growth per run over batches with no collection inside them. */
async function bytesPerRun(workload: Workload): Promise<number | undefined> {
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  observer.observe({ entryTypes: ['gc'] });
  const perRun: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    collectGarbage();
    // Let the observer hear of the forced collections before counting.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const before = collections;
    const heapBefore = process.memoryUsage().heapUsed;
    for (let run = 0; run < RUNS_PER_BATCH; run++) await runOnce(workload);
    const grown = process.memoryUsage().heapUsed - heapBefore;
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (collections === before) perRun.push(grown / RUNS_PER_BATCH);
  }
  observer.disconnect();
  perRun.sort((a, b) => a - b);
  return perRun.length === 0 ? undefined : perRun[perRun.length >> 1];
}

async function measure(workload: Workload, label: string): Promise<void> {
  for (let run = 0; run < WARMUP_RUNS; run++) await runOnce(workload);
  const bytes = await bytesPerRun(workload);
  collectGarbage();
  const runs = TIMED_RUNS[workload];
  const cpuStart = process.cpuUsage();
  for (let run = 0; run < runs; run++) await runOnce(workload);
  const cpu = process.cpuUsage(cpuStart);
  const bytesText = bytes === undefined ? 'bytes not measured (a collection ran in every batch)' : `${(bytes / 1024).toFixed(1)} KiB allocated`;
  console.log(`${label}: ${((cpu.user + cpu.system) / runs).toFixed(0)} µs CPU, ${bytesText} per run (${runs} runs, a new agent each)`);
}

export async function runBenchmark(): Promise<void> {
  await measure('stepless', "A run's fixed cost (a run that answers at once)");
  await measure('w1', `A W1 run (${STEPS_PER_RUN} tool steps and an answer)`);
  console.log("  compare builds in one interleaved A/B run (docs/performance.md): the figures move with the machine's load");
}
