import { instance, type Viz } from '@viz-js/viz';
import { type DotOptions, graphToDot } from './graphToDot.js';
import type { MachineGraph } from './machineGraph.js';

let viz: Promise<Viz> | undefined;

/**
 * Renders DOT to SVG with Graphviz compiled to WebAssembly (`@viz-js/viz`):
 * no browser, no native binary, no network. The first call loads the module
 * (about 50 ms); later calls reuse it.
 *
 * @example
 * const svg = await renderDotToSvg('digraph { a -> b }');
 */
export async function renderDotToSvg(dot: string): Promise<string> {
  viz ??= instance();
  const result = (await viz).render(dot, { format: 'svg' });
  if (result.status !== 'success') {
    throw new Error(`Graphviz could not render the diagram: ${result.errors.map((error) => error.message).join('; ')}`);
  }
  return stripProlog(result.output);
}

/**
 * Renders a machine graph to SVG (states carry the ids `state:<id>`).
 *
 * @example
 * const svg = await renderGraphToSvg(machineGraph(agentMachine), { highlight: ['agent.thinking'] });
 */
export function renderGraphToSvg(graph: MachineGraph, options: DotOptions = {}): Promise<string> {
  return renderDotToSvg(graphToDot(graph, options));
}

/** Drops the XML prolog and doctype so the SVG can be inlined in HTML as well as saved as a file. */
function stripProlog(svg: string): string {
  const start = svg.indexOf('<svg');
  return start > 0 ? `${svg.slice(start).trimEnd()}\n` : svg;
}
