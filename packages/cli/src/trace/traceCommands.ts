import { rmSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { formatTimeline, ndjsonFileSink, readTraceFile } from '@agentchart/inspect';
import type { CommandContext } from '../command.js';
import { notAScript, resolveScript } from '../watch/resolveScript.js';
import { watchModule } from '../watch/watchModule.js';

/** `agentchart trace`: a trace file as a readable timeline. */
export async function traceCommand(file: string, options: { verbose?: boolean }): Promise<void> {
  process.stdout.write(formatTimeline(await readTraceFile(file), { verbose: options.verbose ?? false }));
}

/**
 * `agentchart record`: runs a script (or an example) and writes the trace of
 * every run it starts. A script that started no run leaves no trace file and
 * fails: there was nothing to record.
 */
export async function recordCommand(target: string, options: { out?: string | undefined }, context: CommandContext): Promise<void> {
  const moduleUrl = resolveScript(target, context.examples);
  if (!moduleUrl) throw new Error(notAScript(target, 'a script', context.examples));
  const out = options.out ?? `${basename(target).replace(/\.[mc]?[jt]s$/, '')}.trace.ndjson`;
  const { runs } = await watchModule(moduleUrl, {
    sink: ndjsonFileSink(out),
    title: basename(target),
    output: 'stderr',
    loadsTypeScript: context.loadsTypeScript,
  });
  if (runs === 0) {
    rmSync(out, { force: true });
    throw new Error(
      `${target} ran to its end without starting an agent run or a group chat, so there is no trace. Does its top level await its runs (\`await agent.run(…).result\`)? Does it import an @agentchart/actors older than the CLI's?`,
    );
  }
  console.error(
    `trace of ${runs} ${runs === 1 ? 'run' : 'runs'} written to ${resolve(out)}: read it with \`agentchart trace\`, watch it with \`agentchart view\``,
  );
}
