import { basename, resolve } from 'node:path';
import { formatTimeline, ndjsonFileSink, readTraceFile } from '@agentchart/inspect';
import { resolveModule } from './exampleModules.js';
import { watchModule } from './watchModule.js';

/** `agentchart trace`: a trace file as a readable timeline. */
export async function traceCommand(file: string, options: { verbose?: boolean }): Promise<void> {
  process.stdout.write(formatTimeline(await readTraceFile(file), { verbose: options.verbose ?? false }));
}

/** `agentchart record`: runs an example (or script) and writes its trace. */
export async function recordCommand(target: string, options: { out?: string }): Promise<void> {
  const moduleUrl = resolveModule(target);
  if (!moduleUrl) throw new Error(`"${target}" is neither an example name nor a script.`);
  const out = options.out ?? `${basename(target).replace(/\.[mc]?[jt]s$/, '')}.trace.ndjson`;
  await watchModule(moduleUrl, { sink: ndjsonFileSink(out), title: basename(target), output: 'stderr' });
  console.error(`trace written to ${resolve(out)}: read it with \`agentchart trace\`, watch it with \`agentchart view\``);
}
