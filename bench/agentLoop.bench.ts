/**
 * W1: framework overhead per tool step. An agent with three zod tools and a
 * zero-latency scripted model that calls one tool per step for 20 steps and
 * then answers; 10,000 tool steps after a warm-up.
 * W2: heap retained per idle agent.
 */
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { heapUsed } from './heapUsed.js';
import { STEPS_PER_RUN, w1Model, w1Tools as tools } from './w1Workload.js';

const TOOL_STEPS = 10_000;
const WARMUP_TOOL_STEPS = 2_000;
const IDLE_AGENTS = 10_000;

function benchAgent() {
  return createAgent({ name: 'bench', model: w1Model(), tools, maxSteps: STEPS_PER_RUN + 1, instructions: 'Benchmark.' });
}

async function runToolSteps(toolSteps: number): Promise<void> {
  const agent = benchAgent();
  for (let done = 0; done < toolSteps; done += STEPS_PER_RUN) {
    const result = await agent.run('go').result;
    if (result.toolCalls.length !== STEPS_PER_RUN || result.stopReason !== 'completed') {
      throw new Error(`benchmark run went wrong: ${result.stopReason}, ${result.toolCalls.length} tool calls`);
    }
  }
}

export async function runBenchmark(): Promise<void> {
  await runToolSteps(WARMUP_TOOL_STEPS);
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await runToolSteps(TOOL_STEPS);
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  console.log(
    `W1 framework overhead per tool step: ${(elapsedUs / TOOL_STEPS).toFixed(1)} µs wall, ` +
      `${((cpu.user + cpu.system) / TOOL_STEPS).toFixed(1)} µs CPU (${TOOL_STEPS} tool steps, ${STEPS_PER_RUN} per run)\n` +
      `  target: CPU ≤ 0.4× that of 41f284d in an A/B run (41f284d: 69–72 µs on the quiet machine → ≤ 28 µs) ` +
      `and ≥ 8× less than the Vercel AI SDK's (peers-bench, docs/performance.md)`,
  );

  const model = scriptedModel([{ text: 'idle' }]);
  const before = heapUsed();
  const agents = Array.from({ length: IDLE_AGENTS }, (_, i) => createAgent({ name: `agent_${i}`, model, tools, instructions: 'Idle.' }));
  const after = heapUsed();
  console.log(
    `W2 heap retained per idle agent: ${Math.round((after - before) / agents.length)} bytes (${IDLE_AGENTS} agents, 3 tools each)\n` +
      '  target: ≤ 700 B (OpenAI Agents JS 0.20 holds 700 B; 41f284d held 1,156 B)',
  );
}
