import {
  type CompiledToolRules,
  type ToolRuleInput,
  type ToolRuleState,
  type ToolRulesEvent,
  allowedTools,
  callEvent,
  canEnd,
  compileToolRules,
  rules,
  toMermaid,
} from '@agentchart/core';
import { getShortestPaths } from 'xstate/graph';
import { describe, expect, it } from 'vitest';
import { type Ending, type ExecutedCall, ruleViolations } from './ruleOracle.js';

const OUTPUTS = [true, false, 'true', '42', 'other'];

/** Every event the rule machine understands, with representative conditional outputs. */
function allEvents(compiled: CompiledToolRules): ToolRulesEvent[] {
  return [
    ...compiled.toolNames.map(callEvent),
    ...OUTPUTS.map((value): ToolRulesEvent => ({ type: 'output', value })),
    { type: 'end' },
    { type: 'approve' },
    { type: 'reject' },
  ];
}

/** The executed calls along a path of machine events (a call counts once approved, outputs attach to it). */
function executedAlong(events: readonly ToolRulesEvent[], compiled: CompiledToolRules): { calls: ExecutedCall[]; ending: Ending } {
  const calls: ExecutedCall[] = [];
  let waiting: string | undefined;
  let ending: Ending = 'cut-short';
  for (const event of events) {
    if (event.type.startsWith('call.')) {
      const tool = event.type.slice('call.'.length);
      if (compiled.program.requiresApproval.has(tool)) waiting = tool;
      else calls.push({ tool });
      if (compiled.program.terminal.has(tool) && waiting === undefined) ending = 'terminal-tool';
    } else if (event.type === 'approve' && waiting !== undefined) {
      calls.push({ tool: waiting, approved: true });
      if (compiled.program.terminal.has(waiting)) ending = 'terminal-tool';
      waiting = undefined;
    } else if (event.type === 'reject') waiting = undefined;
    else if (event.type === 'output') {
      const last = calls.at(-1);
      if (last) last.output = (event as { value: unknown }).value;
    } else if (event.type === 'end') ending = 'final-answer';
  }
  return { calls, ending };
}

const EXAMPLES: Record<string, { tools: string[]; rules: ToolRuleInput[] }> = {
  research: {
    tools: ['search', 'read', 'summarize', 'save', 'send'],
    rules: [
      rules.init('search'),
      rules.child('search', ['read', 'summarize']),
      rules.maxCount('search', 2),
      rules.maxCount('read', 2),
      rules.requiredBeforeExit('save'),
      rules.terminal('send'),
      rules.continue('read'),
    ],
  },
  review: {
    tools: ['draft', 'check', 'publish', 'revise', 'login'],
    rules: [
      rules.conditional('check', {
        cases: [
          [true, 'publish'],
          [false, 'revise'],
        ],
      }),
      rules.parent('login', ['draft']),
      rules.maxCount('check', 2),
      rules.child('revise', ['check', 'draft', 'login']),
      rules.requiresApproval('publish'),
      rules.terminal('publish'),
    ],
  },
};

describe('graph enumeration of compiled rule machines', () => {
  for (const [name, example] of Object.entries(EXAMPLES)) {
    it(`${name}: every reachable state is reached only by legal call orders`, () => {
      const compiled = compileToolRules(example.rules, example.tools);
      const paths = getShortestPaths(compiled.machine, { events: allEvents(compiled) });
      expect(paths.length).toBeGreaterThan(10);
      for (const path of paths) {
        const { calls, ending } = executedAlong(
          path.steps.map((step) => step.event as ToolRulesEvent),
          compiled,
        );
        expect(ruleViolations(compiled.rules, calls, ending)).toEqual([]);
        const state = path.state.context as ToolRuleState;
        // No reachable state is a deadlock, and the machine's guards agree with the engine.
        if (path.state.status === 'active' && state.awaitingApproval === null && state.branch?.status !== 'pending') {
          expect(allowedTools(compiled.program, state).length > 0 || canEnd(compiled.program, state)).toBe(true);
        }
        expect(compiled.toolNames.filter((tool) => path.state.can(callEvent(tool)))).toEqual(
          path.state.status === 'active' ? allowedTools(compiled.program, state) : [],
        );
      }
    });
  }

  it('research: the reachable states contain none that an illegal order would reach', () => {
    const compiled = compileToolRules(EXAMPLES.research!.rules, EXAMPLES.research!.tools);
    const states = getShortestPaths(compiled.machine, { events: allEvents(compiled) }).map((path) => ({
      value: path.state.value,
      context: path.state.context as ToolRuleState,
      status: path.state.status,
    }));
    // Illegal orders: read or summarize first, search a third time, send before save, ending right after read.
    expect(states.some((s) => s.value === 'after:read' && s.context.counts.search === undefined)).toBe(false);
    expect(states.every((s) => (s.context.counts.search ?? 0) <= 2 && (s.context.counts.read ?? 0) <= 2)).toBe(true);
    expect(states.some((s) => s.status === 'done' && !s.context.called.includes('save'))).toBe(false);
    expect(states.some((s) => s.status === 'done' && s.context.last === 'read')).toBe(false);
    expect(states.some((s) => s.value === 'start')).toBe(true);
    expect(states.some((s) => s.status === 'done')).toBe(true);
  });

  it('renders a Mermaid state diagram and a JSON machine config', () => {
    const compiled = compileToolRules([rules.init('a'), rules.child('a', ['b']), rules.terminal('c')], ['a', 'b', 'c']);
    expect(toMermaid(compiled.program)).toBe(
      [
        'stateDiagram-v2',
        '  state "start" as start',
        '  state "a" as t_a',
        '  state "b" as t_b',
        '  start --> t_a: a',
        '  t_a --> t_b: b',
        '  t_b --> t_a: a',
        '  t_b --> t_b: b',
        '  t_b --> done: c',
        '  t_b --> done: final answer',
        '  [*] --> start',
        '  done --> [*]',
      ].join('\n'),
    );
    // Names that sanitize alike get distinct states; an open conditional branch may end the run.
    const branching = compileToolRules(
      [rules.init('get-x'), rules.conditional('get-x', { cases: [[true, 'get_x']] }), rules.child('get_x', ['get-x'])],
      ['get-x', 'get_x'],
    );
    expect(toMermaid(branching.program)).toBe(
      [
        'stateDiagram-v2',
        '  state "start" as start',
        '  state "get-x" as t_get_x',
        '  state "get_x" as t_get_x_2',
        '  start --> t_get_x: get-x',
        '  t_get_x --> t_get_x_2: get_x [output true]',
        '  t_get_x --> t_get_x: get-x [no match]',
        '  t_get_x --> t_get_x_2: get_x [no match]',
        '  t_get_x --> done: final answer [no match]',
        '  t_get_x_2 --> t_get_x: get-x',
        '  [*] --> start',
        '  done --> [*]',
      ].join('\n'),
    );
    const config = compiled.machineConfig();
    expect(JSON.parse(JSON.stringify(config))).toEqual(config);
    expect(Object.keys(config.states)).toEqual(['start', 'after:a', 'after:b', 'done']);
    expect(config.on['call.c']).toEqual({
      guard: { type: 'allowed', params: { tool: 'c' } },
      target: '.done',
      actions: { type: 'call', params: { tool: 'c' } },
    });
  });
});
