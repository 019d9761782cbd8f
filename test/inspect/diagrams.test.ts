import { agentMachine } from '@agentchart/actors';
import { graphToDot, graphToMermaid, machineGraph, renderGraphToSvg } from '@agentchart/inspect';
import { compileToolRules, rules } from '@agentchart/core';
import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';

describe('machine diagrams', () => {
  it('labels a guard with the params written in the machine, and not with params computed at run time', () => {
    const machine = createMachine({
      initial: 'a',
      states: {
        a: {
          on: {
            go: [
              { guard: { type: 'into', params: { state: 'b' } }, target: 'b' },
              { guard: { type: 'into', params: () => ({ state: 'c' }) }, target: 'c' },
            ],
          },
        },
        b: {},
        c: {},
      },
    });
    const guards = machineGraph(machine).edges.map((edge) => `${edge.target}:${edge.guard}`);
    expect(guards).toEqual(['(machine).b:into(b)', '(machine).c:into']);
  });

  it('reads the agent machine into states and labelled transitions', () => {
    const graph = machineGraph(agentMachine);
    // The agent machine grows with features; these states and transitions are its backbone.
    expect(graph.nodes.map((node) => `${node.id}:${node.type}`)).toEqual(
      expect.arrayContaining([
        'agent:compound',
        'agent.idle:atomic',
        'agent.thinking:atomic',
        'agent.acting:atomic',
        'agent.screening:atomic',
        'agent.awaitingApproval:atomic',
        'agent.done:atomic',
        'agent.aborted:atomic',
        'agent.failed:atomic',
        'agent.ended:final',
      ]),
    );
    expect(graph.nodes[0]).toEqual({
      id: 'agent',
      key: 'agent',
      type: 'compound',
      initial: 'agent.idle',
      // The model caller is a child spawned with the run (an entry action), not an invoke.
      invokes: [],
    });
    expect(graph.nodes.find((node) => node.id === 'agent.thinking')).toEqual({
      id: 'agent.thinking',
      key: 'thinking',
      parent: 'agent',
      type: 'atomic',
      invokes: [],
    });
    // A tool step is two events, each guarded by where its step leads: no eventless state between them.
    expect(graph.edges).toContainEqual({
      source: 'agent.thinking',
      target: 'agent.done',
      event: 'model.reply',
      label: 'model.reply',
      guard: 'leadsTo(done)',
    });
    expect(graph.edges).toContainEqual({
      source: 'agent.acting',
      target: 'agent.thinking',
      event: 'tool.settled',
      label: 'tool.settled',
      guard: 'leadsTo(thinking)',
    });
    // The only eventless transitions leave the endings: to `ended`, or (a resident agent's turn) back to `idle`.
    const endings = ['done', 'terminalToolCalled', 'maxStepsReached', 'tokenBudgetSpent', 'limitReached', 'endedByMiddleware', 'aborted', 'failed'];
    expect(new Set(graph.edges.filter((edge) => edge.event === '').map((edge) => edge.source))).toEqual(
      new Set(endings.map((state) => `agent.${state}`)),
    );
    expect(graph.edges).toContainEqual({ source: 'agent.done', target: 'agent.idle', event: '', label: 'always', guard: 'livesForChat' });
    expect(graph.edges).toContainEqual({ source: 'agent', target: 'agent.aborted', event: 'abort', label: 'abort' });
  });

  it('writes Mermaid with initial, final and nested states', () => {
    const machine = createMachine({
      id: 'door',
      initial: 'closed',
      states: {
        closed: { on: { open: 'opened' } },
        opened: { initial: 'still', states: { still: { on: { swing: 'swinging' } }, swinging: {} }, on: { close: 'closed', lock: 'locked' } },
        locked: { type: 'final' },
      },
    });
    expect(graphToMermaid(machineGraph(machine))).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> closed',
        '  state opened {',
        '    [*] --> opened_still',
        '    state "still" as opened_still',
        '    state "swinging" as opened_swinging',
        '  }',
        '  locked --> [*]',
        '  closed --> opened : open',
        '  opened --> closed : close',
        '  opened --> locked : lock',
        '  opened_still --> opened_swinging : swing',
        '',
      ].join('\n'),
    );
  });

  it('renders SVG in Node with an id per state and the current state filled', async () => {
    const graph = machineGraph(agentMachine);
    expect(graphToDot(graph, { highlight: ['agent.thinking'] })).toContain('"agent.thinking" [id="state:agent.thinking"');
    const svg = await renderGraphToSvg(graph, { highlight: ['agent.thinking'] });
    expect(svg.startsWith('<svg')).toBe(true);
    for (const state of ['idle', 'thinking', 'acting', 'screening', 'done', 'failed', 'ended']) {
      expect(svg).toContain(`id="state:agent.${state}"`);
    }
    const thinking = svg.slice(svg.indexOf('id="state:agent.thinking"'), svg.indexOf('</g>', svg.indexOf('id="state:agent.thinking"')));
    expect(thinking).toContain('fill="#ffd966"');
  });

  it('draws a rule machine by what it allows, a conditional tool by what each output allows next', () => {
    const compiled = compileToolRules(
      [
        rules.init('check'),
        rules.conditional('check', {
          cases: [
            [true, 'publish'],
            [false, 'revise'],
          ],
        }),
        rules.terminal('publish'),
      ],
      ['check', 'publish', 'revise'],
    );
    const edges = machineGraph(compiled.machine).edges.map(
      (edge) => `${edge.source} -> ${edge.target}: ${edge.label}${edge.guard ? ` [${edge.guard}]` : ''}`,
    );
    expect(edges).toEqual(
      expect.arrayContaining([
        'toolRules.start -> toolRules.after:check: check',
        'toolRules.after:check -> toolRules.done: publish [output true]',
        'toolRules.after:check -> toolRules.after:revise: revise [output false]',
        'toolRules.after:check -> toolRules.after:revise: revise [output "(no match)"]',
      ]),
    );
    // Nothing but check may start; publish never follows a false output.
    expect(edges.filter((edge) => edge.startsWith('toolRules.start ->'))).toEqual(['toolRules.start -> toolRules.after:check: check']);
    expect(edges).not.toContain('toolRules.after:check -> toolRules.done: publish [output false]');
  });
});
