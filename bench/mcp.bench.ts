/**
 * M1: a tool step whose tool is on an MCP server over stdio
 * (`@modelcontextprotocol/server-everything`'s `echo`) against the same step
 * with a local tool, interleaved in rounds (medians).
 * M2: what a tool source costs a run that needs no connection: an agent whose
 * tools come from an in-memory source (load, deferred run handle, list-change
 * subscription) against the same agent with the tools given directly.
 * M3: the first run of an MCP agent: starting the server, the handshake and
 * `tools/list`, until the run ends.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Agent, type ToolSource, createAgent } from '@agentchart/actors';
import { type AnyTool, defineTool } from '@agentchart/core';
import { mcpServer } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const STEPS_PER_RUN = 10;
const ROUNDS = 5;
const MCP_STEPS = 200;
const LOCAL_RUNS = 2_000;

const require = createRequire(import.meta.url);
const packageJson = require.resolve('@modelcontextprotocol/server-everything/package.json');
const bin = join(dirname(packageJson), (require(packageJson) as { bin: Record<string, string> }).bin['mcp-server-everything'] as string);

const echo = defineTool({
  name: 'echo',
  description: 'Echoes.',
  parameters: z.object({ message: z.string() }),
  execute: ({ message }) => `Echo: ${message}`,
});

function stepModel() {
  return scriptedModel(
    (_request, index) =>
      index % (STEPS_PER_RUN + 1) < STEPS_PER_RUN ? { toolCalls: [{ name: 'echo', arguments: { message: 'hi' } }] } : { text: 'done' },
    { recordRequests: false },
  );
}

async function microsPerStep(agent: Agent, steps: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let done = 0; done < steps; done += STEPS_PER_RUN) await agent.run('go').result;
  return Number(process.hrtime.bigint() - started) / 1000 / steps;
}

async function microsPerRun(agent: Agent, runs: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let done = 0; done < runs; done++) await agent.run('go').result;
  return Number(process.hrtime.bigint() - started) / 1000 / runs;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function memorySource(tools: AnyTool[]): ToolSource {
  return { name: 'memory', loadTools: async () => tools, onToolsChanged: () => () => {}, close: async () => {} };
}

export async function runBenchmark(): Promise<void> {
  const firstStarted = process.hrtime.bigint();
  const server = mcpServer({ name: 'everything', command: process.execPath, args: [bin, 'stdio'], filter: ['echo'] });
  const mcpAgent = createAgent({ name: 'bench', model: stepModel(), toolSources: [server], maxSteps: STEPS_PER_RUN + 1 });
  await mcpAgent.run('go').result;
  const firstMs = Number(process.hrtime.bigint() - firstStarted) / 1e6;
  const localAgent = createAgent({ name: 'bench', model: stepModel(), tools: [echo], maxSteps: STEPS_PER_RUN + 1 });
  const answer = () => scriptedModel(() => ({ text: 'done' }), { recordRequests: false });
  const direct = createAgent({ name: 'bench', model: answer(), tools: [echo] });
  const sourced = createAgent({ name: 'bench', model: answer(), toolSources: [memorySource([echo])] });
  await microsPerStep(localAgent, 500);
  await microsPerRun(direct, 500);
  await microsPerRun(sourced, 500);
  const mcp: number[] = [];
  const local: number[] = [];
  const directRuns: number[] = [];
  const sourcedRuns: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    mcp.push(await microsPerStep(mcpAgent, MCP_STEPS));
    local.push(await microsPerStep(localAgent, MCP_STEPS * 10));
    directRuns.push(await microsPerRun(direct, LOCAL_RUNS));
    sourcedRuns.push(await microsPerRun(sourced, LOCAL_RUNS));
  }
  await mcpAgent.close();
  console.log(
    `M1 tool step, MCP over stdio (server-everything echo): ${median(mcp).toFixed(0)} µs; local tool: ${median(local).toFixed(1)} µs (medians of ${ROUNDS} rounds)`,
  );
  console.log(
    `M2 one-answer run, tools from an in-memory tool source: ${median(sourcedRuns).toFixed(1)} µs; tools given directly: ${median(directRuns).toFixed(1)} µs`,
  );
  console.log(`M3 first run of an MCP agent (start server, handshake, tools/list, 10 tool steps): ${firstMs.toFixed(0)} ms`);
}
