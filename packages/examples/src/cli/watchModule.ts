import { observeAllRuns } from '@agentchart/actors';
import { type TraceSink, createTraceRecorder } from '@agentchart/inspect';

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
}

/**
 * Imports a script (an example) while every run it starts is recorded into a
 * trace; resolves with its exports once the script's top level has finished.
 *
 * @example
 * await watchModule(resolveModule('demo'), { sink: view.sink, title: 'demo' });
 */
export async function watchModule(moduleUrl: string, options: WatchOptions): Promise<Record<string, unknown>> {
  const recorder = createTraceRecorder({ sink: options.sink, title: options.title });
  const stop = observeAllRuns({
    inspect: recorder.inspect,
    // A chat is recorded from its whole event stream (its agents' events are in it), with its speaker transitions.
    onRun: (run) =>
      recorder.recordRun(
        run.chatEvents$ ? { chatId: run.runId, name: run.name ?? 'group chat', machines: run.machines, events$: run.chatEvents$ } : run,
      ),
  });
  const write = process.stdout.write;
  if (options.output === 'stderr') process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  if (options.output === 'none') process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return (await import(moduleUrl)) as Record<string, unknown>;
  } finally {
    process.stdout.write = write;
    stop();
    await recorder.close();
  }
}
