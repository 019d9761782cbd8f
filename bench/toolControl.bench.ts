/**
 * T1: cost of function middleware per tool step (0 vs 4 pass-through layers).
 * T2: persisting a run that waits for approval and resuming it in a fresh
 * agent (persist + JSON round trip + resume + approve), and the snapshot size.
 */
import { type Agent, createAgent } from '@agentchart/actors';
import { type FunctionMiddleware, defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const STEPS_PER_RUN = 20;
const TOOL_STEPS = 6_000;
const WARMUP_TOOL_STEPS = 1_000;
const ROUND_TRIPS = 300;

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up a key.',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}`,
});
const passThrough: FunctionMiddleware = async (_ctx, next) => next();

function loopAgent(middleware: FunctionMiddleware[]): Agent {
  const model = scriptedModel(
    (_request, index) =>
      index % (STEPS_PER_RUN + 1) < STEPS_PER_RUN ? { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] } : { text: 'done' },
    { recordRequests: false },
  );
  return createAgent({ name: 'bench', model, tools: [lookup], middleware, maxSteps: STEPS_PER_RUN + 1 });
}

async function microsPerStep(agent: Agent, toolSteps: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let done = 0; done < toolSteps; done += STEPS_PER_RUN) await agent.run('go').result;
  return Number(process.hrtime.bigint() - started) / 1000 / toolSteps;
}

const transfer = defineTool({
  name: 'transfer',
  description: 'Transfers money.',
  parameters: z.object({ amount: z.number() }),
  approval: 'always',
  execute: ({ amount }) => `sent ${amount}`,
});
const approvalAgent = () =>
  createAgent({
    name: 'payments',
    model: scriptedModel((request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: 'done' }
        : { toolCalls: [{ id: 'pay', name: 'transfer', arguments: { amount: 5 } }] },
    ),
    tools: [transfer],
  });

async function waitingSnapshot(agent: Agent): Promise<string> {
  const run = agent.run('Pay 5.');
  await new Promise<void>((resolve) => run.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
  const json = JSON.stringify(run.persist());
  run.abort();
  await run.result;
  return json;
}

export async function runBenchmark(): Promise<void> {
  const plain = loopAgent([]);
  const layered = loopAgent([passThrough, passThrough, passThrough, passThrough]);
  await microsPerStep(plain, WARMUP_TOOL_STEPS);
  await microsPerStep(layered, WARMUP_TOOL_STEPS);
  const without = await microsPerStep(plain, TOOL_STEPS);
  const withLayers = await microsPerStep(layered, TOOL_STEPS);
  console.log(
    `T1 tool step: ${without.toFixed(1)} µs without middleware, ${withLayers.toFixed(1)} µs with 4 layers ` +
      `(${((withLayers - without) / 4).toFixed(2)} µs per layer; ${TOOL_STEPS} steps each)`,
  );

  const source = approvalAgent();
  const json = await waitingSnapshot(source);
  const started = process.hrtime.bigint();
  for (let index = 0; index < ROUND_TRIPS; index++) {
    const snapshot = await waitingSnapshot(source);
    const resumed = approvalAgent().resume(JSON.parse(snapshot));
    resumed.approve('pay');
    await resumed.result;
  }
  const perRoundTrip = Number(process.hrtime.bigint() - started) / 1000 / ROUND_TRIPS;
  console.log(
    `T2 approval round trip (run to approval, persist, JSON, resume in a fresh agent, approve, finish): ` +
      `${perRoundTrip.toFixed(0)} µs; snapshot ${json.length} bytes (${ROUND_TRIPS} round trips)`,
  );
}
