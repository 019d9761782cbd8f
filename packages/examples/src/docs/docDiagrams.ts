import { agentMachine } from '@agentchart/actors';
import { type MachineGraph, graphToMermaid, machineGraph } from '@agentchart/inspect';
import { collectDiagrams } from '@agentchart/cli/diagrams';
import { exampleNames, exampleSource } from '../cli/exampleModules.js';

/** A machine drawn in docs/images, under its file name without extension (`agent-machine`, `group-chat.speakers`). */
export interface DocDiagram {
  name: string;
  graph: MachineGraph;
}

/**
 * The machines docs/images holds a picture (`.svg`) and a Mermaid source
 * (`.mmd`) of: the agent machine, and every other machine of every example
 * (running each example on its scripted models).
 *
 * @example
 * for (const { name, graph } of await docDiagrams()) console.log(name, graph.nodes.length);
 */
export async function docDiagrams(): Promise<DocDiagram[]> {
  const diagrams: DocDiagram[] = [{ name: 'agent-machine', graph: machineGraph(agentMachine) }];
  for (const example of exampleNames()) {
    for (const { key, graph } of await collectDiagrams(example, { examples: exampleSource, loadsTypeScript: true })) {
      if (key === 'agent') continue; // the same agent machine in every example
      diagrams.push({ name: `${example}.${key.replace(/[^\w.-]+/g, '-')}`, graph });
    }
  }
  return diagrams;
}

/**
 * The Mermaid sources of docs/images, by file name (`agent-machine.mmd`), as
 * `pnpm docs:images` writes them.
 *
 * @example
 * const sources = await docMermaidSources();
 * sources.get('agent-machine.mmd'); // 'stateDiagram-v2\n…'
 */
export async function docMermaidSources(): Promise<Map<string, string>> {
  return new Map((await docDiagrams()).map(({ name, graph }) => [`${name}.mmd`, graphToMermaid(graph)]));
}
