import {
  type CompiledToolRules,
  type ToolRuleState,
  type ToolRulesEvent,
  applyCall,
  applyOutput,
  approveCall,
  callEvent,
  canEnd,
  compileToolRules,
  rejectCall,
  rules,
} from '@agentchart/core';
import { blockingRule, toolStateKey } from '@agentchart/core/internal';
import { applyEnd } from '@agentchart/core/internal';
import { describe, expect, it } from 'vitest';
import { type AnyMachineSnapshot, transition } from 'xstate';
import { getShortestPaths } from 'xstate/graph';

/**
 * The agent's gate decides with the compiled program (the engine functions:
 * `blockingRule`, `applyCall`, `applyOutput`, `approveCall`, `rejectCall`,
 * `canEnd`, `applyEnd`), and the rules' machine is generated from the same
 * program with guards that call them. These tests prove the two agree in
 * every state the machine can reach: for every event, the machine takes a
 * transition exactly when the engine admits it, and lands on the state the
 * engine computes, in the state node that names it.
 */
const RULE_SETS: Record<string, { tools: string[]; rules: unknown[] }> = {
  everyKind: {
    tools: ['search', 'read', 'check', 'publish', 'revise', 'login', 'save', 'send'],
    rules: [
      rules.init('search'),
      rules.child('search', ['read', 'check']),
      rules.maxCount('search', 2),
      rules.conditional('check', {
        cases: [
          [true, 'publish'],
          [false, 'revise'],
        ],
      }),
      rules.parent('login', ['save']),
      rules.requiresApproval('publish'),
      rules.requiredBeforeExit('read'),
      rules.terminal('send'),
      rules.continue('read'),
    ],
  },
  requiredMatch: {
    tools: ['classify', 'left', 'right', 'stop'],
    rules: [
      rules.conditional('classify', {
        cases: [
          ['l', 'left'],
          ['r', 'right'],
        ],
        requireMatch: true,
      }),
      rules.maxCount('classify', 2),
      rules.requiresApproval('right'),
      rules.terminal('stop'),
    ],
  },
  defaultBranch: {
    tools: ['probe', 'a', 'b'],
    rules: [rules.conditional('probe', { cases: [[1, 'a']], default: 'b' }), rules.maxCount('probe', 3), rules.requiresApproval('a')],
  },
};

const OUTPUTS: unknown[] = [true, false, 'l', 'r', 1, 'unmatched'];

function events(compiled: CompiledToolRules): ToolRulesEvent[] {
  return [
    ...compiled.toolNames.map(callEvent),
    ...OUTPUTS.map((value): ToolRulesEvent => ({ type: 'output', value })),
    { type: 'end' },
    { type: 'approve' },
    { type: 'reject' },
  ];
}

/** What the engine does with `event` in `state`: the next state, or `null` when it refuses the event. */
function engineStep(compiled: CompiledToolRules, state: ToolRuleState, event: ToolRulesEvent): ToolRuleState | null {
  const { program } = compiled;
  if (state.phase !== 'running') return null;
  if (event.type.startsWith('call.')) {
    const tool = event.type.slice('call.'.length);
    return blockingRule(program, state, tool) === null ? applyCall(program, state, tool) : null;
  }
  switch (event.type) {
    case 'output':
      return state.branch?.status === 'pending' ? applyOutput(program, state, (event as { value: unknown }).value).state : null;
    case 'end':
      return canEnd(program, state) ? applyEnd(state) : null;
    case 'approve':
      return state.awaitingApproval !== null && program.requiresApproval.has(state.awaitingApproval) ? approveCall(program, state) : null;
    case 'reject':
      return state.awaitingApproval !== null ? rejectCall(state) : null;
    default:
      return null;
  }
}

/** The state node the machine must be in for an engine state. */
function stateNodeFor(compiled: CompiledToolRules, state: ToolRuleState): string {
  if (state.phase === 'done') return 'done';
  if (state.phase === 'failed') return 'failed';
  if (state.awaitingApproval !== null) return 'awaitingApproval';
  return state.last === null ? 'start' : compiled.program.terminal.has(state.last) ? 'done' : toolStateKey(state.last);
}

describe('the compiled rule machine and the engine the gate uses', () => {
  for (const [name, set] of Object.entries(RULE_SETS)) {
    it(`${name}: agree on every event in every reachable state`, () => {
      const compiled = compileToolRules(set.rules, set.tools);
      const reachable = getShortestPaths(compiled.machine, { events: events(compiled) }).map((path) => path.state as AnyMachineSnapshot);
      expect(reachable.length).toBeGreaterThan(8);
      let admitted = 0;
      for (const snapshot of reachable) {
        const state = snapshot.context as ToolRuleState;
        expect(snapshot.value).toBe(stateNodeFor(compiled, state));
        expect(snapshot.status).toBe(state.phase === 'running' ? 'active' : 'done');
        for (const event of events(compiled)) {
          const expected = engineStep(compiled, state, event);
          const where = `${JSON.stringify(state)} + ${JSON.stringify(event)}`;
          // A finished machine takes no event (XState's `can` does not look at the status, so it is not asked).
          if (snapshot.status !== 'active') {
            expect(expected, where).toBeNull();
            continue;
          }
          if (expected === null) {
            expect(snapshot.can(event), where).toBe(false);
            const [unmoved] = transition(compiled.machine, snapshot, event);
            expect([unmoved.value, unmoved.context], where).toEqual([snapshot.value, snapshot.context]);
            continue;
          }
          expect(snapshot.can(event), where).toBe(true);
          const [next] = transition(compiled.machine, snapshot, event);
          admitted += 1;
          expect(next.context, where).toEqual(expected);
          expect(next.value, where).toBe(stateNodeFor(compiled, expected));
        }
      }
      expect(admitted).toBeGreaterThan(reachable.length);
    });
  }
});
