import { compileToolRules, rules, toMermaid } from '@agentchart/core';
import { graphToDot, graphToMermaid, machineGraph, renderGraphToSvg } from '@agentchart/inspect';
import { describe, expect, it } from 'vitest';

/** `fetch_source` may follow itself; `answer` is a terminal tool, not the final answer. */
const compiled = compileToolRules(
  [rules.init('fetch_source'), rules.child('fetch_source', ['fetch_source', 'read', 'answer']), rules.terminal('answer')],
  ['fetch_source', 'read', 'answer'],
);

describe('diagrams draw every move the rule machine allows', () => {
  it('draws a tool allowed right after itself as a self-loop, and the final answer apart from a tool named answer', async () => {
    const graph = machineGraph(compiled.machine);
    const moves = graph.edges.map((edge) => `${edge.source} -> ${edge.target} : ${edge.label}`);
    expect(moves.sort()).toEqual(
      [
        'toolRules.start -> toolRules.after:fetch_source : fetch_source',
        'toolRules.after:fetch_source -> toolRules.after:fetch_source : fetch_source',
        'toolRules.after:fetch_source -> toolRules.after:read : read',
        'toolRules.after:fetch_source -> toolRules.done : answer',
        'toolRules.after:read -> toolRules.after:fetch_source : fetch_source',
        'toolRules.after:read -> toolRules.after:read : read',
        'toolRules.after:read -> toolRules.done : answer',
        'toolRules.after:read -> toolRules.done : final answer',
      ].sort(),
    );

    const mermaid = graphToMermaid(graph);
    expect(mermaid).toContain('  after_fetch_source --> after_fetch_source : fetch_source\n');
    expect(mermaid).toContain('  after_read --> done : answer\n  after_read --> done : final answer\n');

    const dot = graphToDot(graph);
    expect(dot).toContain('"toolRules.after:fetch_source" -> "toolRules.after:fetch_source" [label=" fetch_source "]');
    const svg = await renderGraphToSvg(graph);
    expect(svg.match(/<title>toolRules\.after:fetch_source&#45;&gt;toolRules\.after:fetch_source<\/title>/g)).toHaveLength(1);
    expect(svg).toContain('> final answer </text>');

    const coreMermaid = toMermaid(compiled.program).split('\n');
    expect(coreMermaid).toContain('  t_fetch_source --> t_fetch_source: fetch_source');
    expect(coreMermaid).toContain('  t_read --> t_read: read');
    expect(coreMermaid).toContain('  t_read --> done: answer');
    expect(coreMermaid).toContain('  t_read --> done: final answer');
  });
});
