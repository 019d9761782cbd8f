import { type Observable, ReplaySubject, Subject } from 'rxjs';
import type { RunHandle } from '../../rootRun/runHandle.js';

/** What a deferred handle needs of the real run it stands for. */
type StartedRun<Event, Result> = Pick<RunHandle<Event, Result>, 'events$' | 'result' | 'abort'>;

/** The parts every deferred handle (a run or a chat not started yet) is made of. */
export interface DeferredStart<Run, Event, Result> {
  /** The real run's events, from its first one; errors with `prepare`'s error. */
  readonly events$: Observable<Event>;
  /** The real run's result; rejects with `prepare`'s error. */
  readonly result: Promise<Result>;
  /** Emits the real run once it exists. */
  readonly started: Observable<Run>;
  /** The real run, once it exists. */
  current(): Run | undefined;
  /** Aborts the real run, or, before it exists, makes it start aborted. */
  abort(): void;
}

/**
 * Starts a run that needs asynchronous work before its actor exists:
 * `prepare` gets an abort signal (the user's, forwarded) and returns what
 * starts the real run, which is called at once so that no event is missed;
 * `onStarted` then hands it what was queued meanwhile.
 *
 * @example
 * const deferred = deferredStart(async (signal) => { await load(signal); return () => agent.run(input); }, options.signal);
 */
export function deferredStart<Event, Result, Run extends StartedRun<Event, Result>>(
  prepare: (signal: AbortSignal) => Promise<() => Run>,
  userSignal: AbortSignal | undefined,
  onStarted: (run: Run) => void = () => {},
): DeferredStart<Run, Event, Result> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (userSignal?.aborted) abort();
  else userSignal?.addEventListener('abort', abort, { once: true });
  const events = new Subject<Event>();
  const started = new ReplaySubject<Run>(1);
  let inner: Run | undefined;
  const result = (async () => {
    try {
      const start = await prepare(controller.signal);
      inner = start();
      inner.events$.subscribe(events);
      onStarted(inner);
    } catch (error) {
      events.error(error);
      started.error(error);
      throw error;
    } finally {
      userSignal?.removeEventListener('abort', abort);
    }
    started.next(inner);
    started.complete();
    return inner.result;
  })();
  void result.catch(() => {}); // the caller's `await run.result` sees the rejection
  return {
    events$: events.asObservable(),
    result,
    started: started.asObservable(),
    current: () => inner,
    abort: () => (inner ? inner.abort() : abort()),
  };
}
