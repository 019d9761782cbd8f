import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { graphToMermaid, renderGraphToSvg } from '@agentchart/inspect';
import type { CommandContext } from '../command.js';
import { UsageError } from '../cliErrors.js';
import { type NamedGraph, collectDiagrams } from './collectDiagrams.js';

const FORMATS = ['mermaid', 'svg', 'json'] as const;
type Format = (typeof FORMATS)[number];

/**
 * `agentchart diagram`: the machines of a file as Mermaid, SVG or JSON, on
 * stdout or in `--out` (a file, or a folder with one file per machine).
 */
export async function diagramCommand(
  target: string,
  options: { format?: string | undefined; machine?: string | undefined; out?: string | undefined },
  context: CommandContext,
): Promise<void> {
  const format = (options.format ?? 'mermaid') as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}; got "${format}".`);
  let graphs = await collectDiagrams(target, context);
  if (options.machine !== undefined) {
    graphs = graphs.filter((entry) => entry.key === options.machine);
    if (graphs.length === 0) throw new Error(`No machine "${options.machine}" in ${target}.`);
  }
  if (graphs.length === 0) throw new Error(`${target} holds no machine.`);

  const many = graphs.length > 1;
  if (many && format === 'svg' && options.out === undefined) {
    throw new Error(
      `${target} holds ${graphs.length} machines (${graphs.map((g) => g.key).join(', ')}): pick one with --machine or give --out <folder>.`,
    );
  }
  if (options.out !== undefined && many) {
    await mkdir(options.out, { recursive: true });
    for (const entry of graphs) await writeFile(join(options.out, `${fileName(entry.key)}.${extension(format)}`), await render(entry, format));
    console.error(`wrote ${graphs.length} diagrams to ${options.out}`);
    return;
  }
  const text = many
    ? format === 'json'
      ? `${JSON.stringify(graphs, null, 2)}\n`
      : (await Promise.all(graphs.map(async (entry) => `%% machine: ${entry.key}\n${await render(entry, format)}`))).join('\n')
    : await render(graphs[0] as NamedGraph, format);
  if (options.out === undefined) return void process.stdout.write(text);
  await writeFile(options.out, text);
  console.error(`wrote ${options.out}`);
}

async function render(entry: NamedGraph, format: Format): Promise<string> {
  if (format === 'svg') return renderGraphToSvg(entry.graph);
  if (format === 'json') return `${JSON.stringify(entry.graph, null, 2)}\n`;
  return graphToMermaid(entry.graph);
}

const extension = (format: Format) => (format === 'mermaid' ? 'mmd' : format);
const fileName = (key: string) => key.replace(/[^\w.-]+/g, '-');
