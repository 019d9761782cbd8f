/**
 * Tool rules: the time to compile 200 tools with 400 rules (validation,
 * tables, static analysis, machine) and the cost of choosing the allowed set
 * per step. Targets: compile under 50 ms, a few µs per step.
 */
import {
  type ToolRule,
  type ToolRuleState,
  allowedTools,
  applyCall,
  applyOutput,
  approveCall,
  compileToolRules,
  initialToolRuleState,
} from '@agentchart/core';

const TOOL_COUNT = 200;
const tools = Array.from({ length: TOOL_COUNT }, (_, index) => `tool_${index}`);

/** A deterministic pseudo-random generator (mulberry32), so every run measures the same rule set. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 400 rules of every family over 200 tools, shaped like a large real agent:
 * child rules chain tools into workflows, a few tools are counted, parents
 * gate some tools, conditional tools branch, and terminal tools end runs.
 */
export function benchmarkRules(): ToolRule[] {
  const next = random(42);
  const pick = (from = 0, to = TOOL_COUNT - 10) => tools[from + Math.floor(next() * (to - from))] as string;
  const picks = (count: number) => [...new Set(Array.from({ length: count }, () => pick()))];
  const rules: ToolRule[] = [];
  rules.push({ type: 'init', tool: 'tool_0' }, { type: 'maxCount', tool: 'tool_1', limit: 2 });
  for (let index = 0; index < 5; index++) rules.push({ type: 'terminal', tool: `tool_${TOOL_COUNT - 1 - index}` });
  for (let index = 0; index < 10; index++) rules.push({ type: 'continue', tool: pick() });
  for (let index = 0; index < 150; index++) rules.push({ type: 'child', tool: `tool_${index}`, children: [...picks(4), `tool_${TOOL_COUNT - 1}`] });
  for (let index = 0; index < 40; index++) rules.push({ type: 'parent', tool: `tool_${index}`, children: [pick(150, 190)] });
  for (let index = 0; index < 20; index++) {
    rules.push({
      type: 'conditional',
      tool: `tool_${150 + index}`,
      cases: [
        { when: true, then: pick(0, 150) },
        { when: 'retry', then: pick(0, 150) },
      ],
      defaultChild: `tool_${TOOL_COUNT - 2}`,
    });
  }
  for (let index = 0; index < 100; index++) rules.push({ type: 'maxCount', tool: pick(150, 190), limit: 1 + Math.floor(next() * 3) });
  for (let index = 0; index < 10; index++) rules.push({ type: 'requiresApproval', tool: pick(150, 190) });
  rules.push({ type: 'requiredBeforeExit', tool: 'tool_0' });
  while (rules.length < 400) rules.push({ type: 'maxCount', tool: pick(150, 190), limit: 5 });
  return rules;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export async function runBenchmark(): Promise<void> {
  const rules = benchmarkRules();
  for (let warm = 0; warm < 3; warm++) compileToolRules(rules, tools);
  const times: number[] = [];
  let compiled = compileToolRules(rules, tools);
  for (let round = 0; round < 15; round++) {
    const start = performance.now();
    compiled = compileToolRules(rules, tools);
    times.push(performance.now() - start);
  }
  console.log(
    `compile ${TOOL_COUNT} tools, ${rules.length} rules: median ${median(times).toFixed(1)} ms ` +
      `(min ${Math.min(...times).toFixed(1)} ms; analysis explored ${compiled.analysis.states} states, ` +
      `${compiled.analysis.complete ? 'complete' : 'stopped at the state limit'}) — target < 50 ms`,
  );

  const withoutSearch: number[] = [];
  for (let round = 0; round < 15; round++) {
    const start = performance.now();
    compileToolRules(rules, tools, { maxAnalysisStates: 1 });
    withoutSearch.push(performance.now() - start);
  }
  console.log(
    `  of which the deadlock search: ~${(median(times) - median(withoutSearch)).toFixed(1)} ms (compile without it: ${median(withoutSearch).toFixed(1)} ms)`,
  );

  // Runs through the rules as an agent would make them (restarting when a run ends), choosing the allowed set before every step.
  const { program } = compiled;
  const walk: ToolRuleState[] = [];
  const next = random(7);
  let state = initialToolRuleState();
  while (walk.length < 1_000) {
    walk.push(state);
    const candidates = allowedTools(program, state).filter((tool) => !program.terminal.has(tool));
    if (candidates.length === 0) {
      state = initialToolRuleState();
      continue;
    }
    state = applyCall(program, state, candidates[Math.floor(next() * candidates.length)] as string);
    if (state.awaitingApproval !== null) state = approveCall(program, state);
    if (state.branch?.status === 'pending') state = applyOutput(program, state, next() < 0.8 ? true : 'no').state;
  }
  const iterations = 200_000;
  let sink = 0;
  const start = performance.now();
  for (let index = 0; index < iterations; index++) sink += allowedTools(program, walk[index % walk.length] as ToolRuleState).length;
  const perStep = ((performance.now() - start) * 1000) / iterations;
  console.log(
    `allowed set per step: ${perStep.toFixed(2)} µs (mean over ${iterations} steps of runs through the rules, ` +
      `${(sink / iterations).toFixed(1)} tools allowed on average) — target a few µs`,
  );
}
