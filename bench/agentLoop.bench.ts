/**
 * W1: framework overhead per tool step. An agent with three zod tools and a
 * zero-latency scripted model that calls one tool per step for 20 steps and
 * then answers; 10,000 tool steps after a warm-up, plain and inspected (an
 * inspector that only counts what it sees: the same transitions, watched).
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

let inspected = 0;
const inspect = () => {
  inspected += 1;
};

async function runToolSteps(toolSteps: number, watched: boolean): Promise<void> {
  const agent = benchAgent();
  for (let done = 0; done < toolSteps; done += STEPS_PER_RUN) {
    const result = await agent.run('go', watched ? { inspect } : {}).result;
    if (result.toolCalls.length !== STEPS_PER_RUN || result.stopReason !== 'completed') {
      throw new Error(`benchmark run went wrong: ${result.stopReason}, ${result.toolCalls.length} tool calls`);
    }
  }
}

/** CPU and wall time per tool step of `TOOL_STEPS` steps after a warm-up. */
async function measure(watched: boolean): Promise<{ wallUs: number; cpuUs: number }> {
  await runToolSteps(WARMUP_TOOL_STEPS, watched);
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await runToolSteps(TOOL_STEPS, watched);
  const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return { wallUs: elapsedUs / TOOL_STEPS, cpuUs: (cpu.user + cpu.system) / TOOL_STEPS };
}

export async function runBenchmark(): Promise<void> {
  const plain = await measure(false);
  const watched = await measure(true);
  const line = (name: string, figure: { wallUs: number; cpuUs: number }) =>
    `  ${name.padEnd(10)} ${figure.wallUs.toFixed(1)} µs wall, ${figure.cpuUs.toFixed(1)} µs CPU`;
  console.log(
    `W1 framework overhead per tool step (${TOOL_STEPS} tool steps, ${STEPS_PER_RUN} per run):\n` +
      `${line('plain', plain)}\n${line('inspected', watched)} (${inspected} inspection events)\n` +
      "  target: CPU ≥ 6× less than the Vercel AI SDK's in one peers-bench run (aim for 8×)",
  );

  const model = scriptedModel([{ text: 'idle' }]);
  const before = heapUsed();
  const agents = Array.from({ length: IDLE_AGENTS }, (_, i) => createAgent({ name: `agent_${i}`, model, tools, instructions: 'Idle.' }));
  const after = heapUsed();
  console.log(
    `W2 heap retained per idle agent: ${Math.round((after - before) / agents.length)} bytes (${IDLE_AGENTS} agents, 3 tools each)\n` +
      '  target: ≤ 700 B',
  );
}
