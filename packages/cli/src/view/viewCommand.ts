import { basename } from 'node:path';
import { replayTrace, readTraceFile, startViewServer } from '@agentchart/inspect';
import type { CommandContext } from '../command.js';
import { UsageError } from '../cliErrors.js';
import { notAScript, resolveScript } from '../watch/resolveScript.js';
import { watchModule } from '../watch/watchModule.js';

/** Scripted examples reply at once; in the live view each reply waits this long so you can watch. */
const VIEW_EXAMPLE_LATENCY_MS = '600';

/**
 * `agentchart view`: serves the live view on 127.0.0.1 and feeds it a trace
 * (replayed at its recorded pace × `--speed`; `--speed 0` shows it at once)
 * or a running example, once the page is open (`--now`: at once). Runs until
 * interrupted.
 */
export async function viewCommand(
  target: string,
  options: { port?: string | undefined; speed?: string | undefined; now?: boolean },
  context: CommandContext,
): Promise<void> {
  const port = options.port === undefined ? undefined : Number(options.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new UsageError(`--port must be a port number; got "${options.port}".`);
  const speed = options.speed === undefined ? 1 : Number(options.speed);
  if (!(speed >= 0)) throw new UsageError(`--speed must be 0 (at once) or a positive factor; got "${options.speed}".`);

  const isTrace = target.endsWith('.ndjson');
  const moduleUrl = isTrace ? undefined : resolveScript(target, context.examples);
  if (!isTrace && !moduleUrl) throw new Error(notAScript(target, 'a trace (.ndjson) nor a script', context.examples));
  const trace = isTrace ? await readTraceFile(target) : undefined;

  const view = await startViewServer(port === undefined ? {} : { port });
  console.log(`agentchart live view: ${view.url}  (Ctrl-C to stop)`);
  console.log('the address carries a token made for this launch: open it as printed, and do not share it');
  const stop = () => void view.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  if (!options.now) {
    console.log('starts when the page is open (--now starts at once)');
    await view.firstViewer;
  }
  if (trace) {
    view.sink.write(trace.header);
    replayTrace(trace, { speed }).subscribe({
      next: (entry) => view.sink.write(entry),
      complete: () => console.log(`replay finished (${trace.entries.length} entries); the page stays until Ctrl-C`),
    });
  } else {
    process.env.AGENTCHART_EXAMPLE_LATENCY_MS ??= VIEW_EXAMPLE_LATENCY_MS;
    await watchModule(moduleUrl as string, { sink: view.sink, title: basename(target), output: 'stderr', loadsTypeScript: context.loadsTypeScript });
    console.log(`${basename(target)} finished; the page stays until Ctrl-C`);
  }
}
