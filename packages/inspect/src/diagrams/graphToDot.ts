import type { GraphNode, MachineGraph } from './machineGraph.js';

/** How `graphToDot` draws. */
export interface DotOptions {
  /** State ids drawn as current (filled); the live view highlights in the browser instead. */
  highlight?: readonly string[];
  /** Layout direction (default `TB`). */
  direction?: 'TB' | 'LR';
}

/** The SVG element id of a state in rendered diagrams: `state:agent.thinking`. */
export const svgStateId = (stateId: string): string => `state:${stateId}`;

const FONT = 'fontname="Helvetica"';

/**
 * Writes a machine graph in Graphviz DOT. Every state gets the SVG id
 * `state:<id>` so a page can highlight it; compound states are clusters.
 *
 * @example
 * const dot = graphToDot(machineGraph(agentMachine), { highlight: ['agent.thinking'] });
 */
export function graphToDot(graph: MachineGraph, options: DotOptions = {}): string {
  const highlight = new Set(options.highlight ?? []);
  const children = new Map<string, GraphNode[]>();
  for (const node of graph.nodes) {
    if (node.parent !== undefined) children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  }
  const lines = [
    `digraph ${quote(graph.id)} {`,
    `  graph [rankdir=${options.direction ?? 'TB'}, compound=true, ${FONT}, fontsize=12, nodesep=0.4, ranksep=0.45, bgcolor="transparent"];`,
    `  node [${FONT}, fontsize=12, shape=box, margin="0.22,0.08", style="rounded,filled", fillcolor="#ffffff", color="#5b6b82", penwidth=1.2];`,
    `  edge [${FONT}, fontsize=10, color="#7a869a", fontcolor="#3d4a5c", arrowsize=0.7];`,
  ];
  const root = graph.nodes.find((node) => node.parent === undefined);
  const anchorOf = (id: string) => (id !== root?.id && children.has(id) ? `${id}#anchor` : id);

  const writeLevel = (parent: GraphNode, indent: string) => {
    const initial = parent.initial;
    if (initial) {
      lines.push(`${indent}${quote(`${parent.id}#initial`)} [shape=point, width=0.12, label="", fillcolor="#3d4a5c", color="#3d4a5c"];`);
      lines.push(`${indent}${quote(`${parent.id}#initial`)} -> ${quote(anchorOf(initial))};`);
    }
    for (const node of children.get(parent.id) ?? []) {
      if (children.has(node.id)) {
        lines.push(`${indent}subgraph ${quote(`cluster:${node.id}`)} {`);
        lines.push(`${indent}  id=${quote(`${svgStateId(node.id)}#cluster`)}; label=${quote(node.key)}; style="rounded"; color="#5b6b82";`);
        lines.push(`${indent}  ${quote(anchorOf(node.id))} [id=${quote(svgStateId(node.id))}, shape=plaintext, style="", label=${quote(node.key)}];`);
        writeLevel(node, `${indent}  `);
        lines.push(`${indent}}`);
      } else {
        lines.push(`${indent}${quote(node.id)} [${nodeAttributes(node, highlight.has(node.id))}];`);
      }
    }
  };
  if (root) {
    if (graph.edges.some((edge) => edge.source === root.id)) {
      lines.push(
        `  ${quote(root.id)} [id=${quote(svgStateId(root.id))}, label="any state", shape=box, style="dashed,rounded", fontcolor="#5b6b82"];`,
      );
    }
    if (!root.initial && root.type === 'compound') root.initial = children.get(root.id)?.[0]?.id;
    writeLevel(root, '  ');
  }
  for (const edge of graph.edges) {
    // Spaces around labels keep neighbours apart where the browser's font is wider than Graphviz measured.
    const label = edge.guard ? ` ${edge.label} \n [${edge.guard}] ` : ` ${edge.label} `;
    const style = edge.internal ? ', style=dashed' : '';
    lines.push(`  ${quote(anchorOf(edge.source))} -> ${quote(anchorOf(edge.target))} [label=${quote(label)}${style}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

function nodeAttributes(node: GraphNode, current: boolean): string {
  const label = node.invokes.length > 0 ? `${node.key}\n⟳ ${node.invokes.join(', ')}` : node.key;
  const attributes = [`id=${quote(svgStateId(node.id))}`, `label=${quote(label)}`, `class="state"`];
  if (node.type === 'final') attributes.push('peripheries=2');
  if (current) attributes.push('fillcolor="#ffd966"', 'color="#b8860b"', 'penwidth=2');
  return attributes.join(', ');
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}
