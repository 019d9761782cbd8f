import { type ChatEvent, type ObservedRun, observeAllRuns } from '@agentchart/actors';
import { type Observable, finalize } from 'rxjs';
import { type GenAiTracing, type StopTracing, genAiTracing } from './genAiTracing.js';
import type { GenAiTracingOptions } from './tracingSettings.js';

/**
 * Traces every agent run and group chat this process starts from now on,
 * resumed ones included (`agent.resume`, `chat.resume`, `resumeRunFromStore`,
 * `resumeChatFromStore`, `resumePending`), as `genAiTracing` spans: on the
 * global tracer provider unless `tracer` is given. A nested chat is traced
 * inside its outer chat; reliable tools still take `traceReliableTool`. It
 * observes the runs (`observeAllRuns` of `@agentchart/actors`): nothing about
 * them changes. Returns a function that stops tracing (and ends the spans
 * still open).
 *
 * @example
 * const sdk = new NodeSDK({ traceExporter: new OTLPTraceExporter() });
 * sdk.start();
 * enableTracing();
 * await chat.run('Plan a trip to Lisbon.').result; // an invoke_workflow span with everything under it
 */
export function enableTracing(options: GenAiTracingOptions = {}): StopTracing {
  const tracing = genAiTracing(options);
  const open = new Set<StopTracing>();
  const stopObserving = observeAllRuns({
    onRun: (run) => {
      if (run.nested === true) return;
      let stop: StopTracing | undefined;
      const forget = () => {
        if (stop !== undefined) open.delete(stop);
      };
      stop = traceObserved(tracing, run, forget);
      open.add(stop);
    },
  });
  return () => {
    stopObserving();
    for (const stop of [...open]) stop();
    open.clear();
  };
}

/** Traces one observed run (a chat from its whole event stream); `done` is called once its events end. */
function traceObserved(tracing: GenAiTracing, run: ObservedRun, done: () => void): StopTracing {
  if (run.chatEvents$ === undefined) return tracing.traceRun({ events$: run.events$.pipe(finalize(done)) });
  // An observed chat's `chatEvents$` is its `events$`: its chat events.
  const events$ = (run.chatEvents$ as Observable<ChatEvent>).pipe(finalize(done));
  return tracing.traceChat({ events$ }, run.name === undefined ? {} : { name: run.name });
}
