import type { GraphNode, MachineGraph } from './machineGraph.js';

/**
 * Writes a machine graph as a Mermaid state diagram (`stateDiagram-v2`),
 * for Markdown that renders diagrams (GitHub, docs sites).
 *
 * @example
 * graphToMermaid(machineGraph(agentMachine));
 * // stateDiagram-v2\n  [*] --> idle\n  idle --> thinking : start …
 */
export function graphToMermaid(graph: MachineGraph): string {
  const children = childrenByParent(graph.nodes);
  const names = mermaidNames(graph.nodes);
  const name = (id: string) => names.get(id) ?? 'unknown';
  const lines = ['stateDiagram-v2'];
  const root = graph.nodes.find((node) => node.parent === undefined);
  if (!root) return lines.join('\n');

  const writeLevel = (parent: GraphNode, indent: string) => {
    const kids = children.get(parent.id) ?? [];
    const initial = parent.initial ?? (parent.parent === undefined ? graph.nodes.find((n) => n.parent === parent.id)?.id : undefined);
    if (initial && parent.type !== 'parallel') lines.push(`${indent}[*] --> ${name(initial)}`);
    for (const kid of kids) {
      if (kid.key !== name(kid.id)) lines.push(`${indent}state "${escapeLabel(kid.key)}" as ${name(kid.id)}`);
      if (kid.type === 'compound' || kid.type === 'parallel') {
        lines.push(`${indent}state ${name(kid.id)} {`);
        writeLevel(kid, `${indent}  `);
        lines.push(`${indent}}`);
      }
      if (kid.type === 'final') lines.push(`${indent}${name(kid.id)} --> [*]`);
    }
  };
  writeLevel(root, '  ');

  const anyState = root.id;
  if (graph.edges.some((edge) => edge.source === anyState)) lines.push(`  state "any state" as ${name(anyState)}`);
  for (const edge of graph.edges) {
    const label = edge.guard ? `${edge.label} [${edge.guard}]` : edge.label;
    lines.push(`  ${name(edge.source)} --> ${name(edge.target)} : ${escapeLabel(label)}`);
  }
  return `${lines.join('\n')}\n`;
}

function childrenByParent(nodes: readonly GraphNode[]): Map<string, GraphNode[]> {
  const map = new Map<string, GraphNode[]>();
  for (const node of nodes) {
    if (node.parent === undefined) continue;
    map.set(node.parent, [...(map.get(node.parent) ?? []), node]);
  }
  return map;
}

/** Mermaid state names are identifiers: nested ids become `acting_running`, kept unique. */
function mermaidNames(nodes: readonly GraphNode[]): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const node of nodes) {
    const path = node.parent === undefined ? `${node.key}_any` : node.id.split('.').slice(1).join('_');
    let candidate = path.replace(/[^A-Za-z0-9_]/g, '_') || 'state';
    if (/^\d/.test(candidate)) candidate = `s_${candidate}`;
    let unique = candidate;
    for (let n = 2; used.has(unique); n++) unique = `${candidate}_${n}`;
    used.add(unique);
    names.set(node.id, unique);
  }
  return names;
}

function escapeLabel(text: string): string {
  return text.replace(/[:;"\n]/g, (char) => (char === '\n' ? ' ' : char === '"' ? "'" : ' ')).trim();
}
