/**
 * The cost of watching: a 20-step run recorded into an in-memory trace versus
 * the same run unobserved; sanitising a 200-message context; drawing a
 * machine as SVG (first call loads Graphviz) and exploring a rule machine.
 */
import { agentMachine, createAgent } from '@agentchart/actors';
import { compileToolRules, defineTool, rules } from '@agentchart/core';
import { createTraceRecorder, machineGraph, memorySink, renderGraphToSvg, sanitizeValue } from '@agentchart/inspect';
import { type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const STEPS = 20;
const RUNS = 40;

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up a key.',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => `value of ${key}`,
});
const turns: ScriptedTurn[] = [
  ...Array.from({ length: STEPS }, (): ScriptedTurn => ({ toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] })),
  { text: 'done' },
];

async function timeRuns(record: boolean): Promise<{ msPerRun: number; linesPerRun: number }> {
  let lines = 0;
  const start = performance.now();
  for (let index = 0; index < RUNS; index++) {
    const agent = createAgent({ name: 'bench', model: scriptedModel(turns), tools: [lookup], maxSteps: STEPS + 1 });
    if (!record) {
      await agent.run('go').result;
      continue;
    }
    const sink = memorySink();
    const recorder = createTraceRecorder({ sink });
    const run = agent.run('go', { inspect: recorder.inspect });
    recorder.recordRun(run);
    await run.result;
    await recorder.close();
    lines += sink.lines.length;
  }
  return { msPerRun: (performance.now() - start) / RUNS, linesPerRun: lines / RUNS };
}

function time<T>(work: () => T, repeat: number): number {
  const start = performance.now();
  for (let index = 0; index < repeat; index++) work();
  return (performance.now() - start) / repeat;
}

export async function runBenchmark(): Promise<void> {
  await timeRuns(false);
  await timeRuns(true);
  const plain = await timeRuns(false);
  const recorded = await timeRuns(true);
  console.log(`run of ${STEPS} tool steps, unobserved: ${plain.msPerRun.toFixed(2)} ms`);
  console.log(
    `same run recorded to a trace: ${recorded.msPerRun.toFixed(2)} ms (${recorded.linesPerRun.toFixed(0)} lines, ` +
      `${(((recorded.msPerRun - plain.msPerRun) / plain.msPerRun) * 100).toFixed(0)}% more)`,
  );

  const context = {
    messages: Array.from({ length: 200 }, (_, index) => ({ role: 'user', content: `message ${index} ${'x'.repeat(400)}` })),
    headers: { authorization: 'Bearer abcdefghijkl' },
  };
  console.log(`sanitise a 200-message context: ${(time(() => sanitizeValue(context), 200) * 1000).toFixed(0)} µs`);

  const graph = machineGraph(agentMachine);
  let start = performance.now();
  await renderGraphToSvg(graph);
  const first = performance.now() - start;
  start = performance.now();
  for (let index = 0; index < 20; index++) await renderGraphToSvg(graph);
  console.log(`agent machine as SVG: first ${first.toFixed(0)} ms (loads Graphviz), then ${((performance.now() - start) / 20).toFixed(1)} ms`);

  const tools = Array.from({ length: 12 }, (_, index) => `tool${index}`);
  const compiled = compileToolRules(
    [
      rules.init('tool0'),
      ...tools.slice(0, 11).map((tool, index) => rules.child(tool, [tools[index + 1] as string, 'tool0'])),
      rules.terminal('tool11'),
    ],
    tools,
  );
  console.log(`explore a 12-tool rule machine for its diagram: ${time(() => machineGraph(compiled.machine), 5).toFixed(1)} ms`);
}
