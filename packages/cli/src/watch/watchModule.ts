import { observeAllRuns } from '@agentchart/actors';
import { type TraceSink, createTraceRecorder } from '@agentchart/inspect';
import { prepareToImport } from './loadTypeScript.js';

/** What `watchModule` takes. */
export interface WatchOptions {
  sink: TraceSink | readonly TraceSink[];
  title: string;
  /**
   * Where what the module prints goes: `stderr` (so stdout carries only the
   * command's output) or `none` (the command needs only its machines).
   * Default: stdout.
   */
  output?: 'stdout' | 'stderr' | 'none';
  /** True when TypeScript already loads in this process. */
  loadsTypeScript: boolean;
}

/** What a watched module left: its exports and how many runs (agents and chats) it started. */
export interface WatchedModule {
  exports: Record<string, unknown>;
  runs: number;
}

/**
 * Imports a script while every run it starts is recorded into a trace
 * (also the runs of its own copy of `@agentchart/actors`: run observers are
 * shared by every copy in the process); resolves once the script's top
 * level has finished.
 *
 * @example
 * const { runs } = await watchModule(url, { sink: ndjsonFileSink('app.trace.ndjson'), title: 'app', loadsTypeScript: false });
 */
export async function watchModule(moduleUrl: string, options: WatchOptions): Promise<WatchedModule> {
  await prepareToImport(moduleUrl, options);
  const recorder = createTraceRecorder({ sink: options.sink, title: options.title });
  let runs = 0;
  const stop = observeAllRuns({
    inspect: recorder.inspect,
    // A chat is recorded from its whole event stream (its agents' events are in it), with its speaker transitions.
    onRun: (run) => {
      runs += 1;
      recorder.recordRun(
        run.chatEvents$ ? { chatId: run.runId, name: run.name ?? 'group chat', machines: run.machines, events$: run.chatEvents$ } : run,
      );
    },
  });
  const write = process.stdout.write;
  if (options.output === 'stderr') process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  if (options.output === 'none') process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return { exports: (await import(moduleUrl)) as Record<string, unknown>, runs };
  } finally {
    process.stdout.write = write;
    stop();
    await recorder.close();
  }
}
