/** The end of a run's event stream: completed with the run, or errored with its actor's error. */
interface EventStreamEnd {
  complete(): void;
  error(error: unknown): void;
}

/** What `runOutput` reads of a root actor (see `RootActor`): its end, and its output then. */
interface EndingActor {
  getSnapshot(): { output?: unknown };
  subscribe(observer: { complete?: () => void; error?: (error: unknown) => void }): unknown;
}

/**
 * The output of a run's root actor, as a promise that settles when the actor
 * ends (`output` reads it; default the actor's snapshot's). `release` runs first (unsubscribe what fed the run's events), then
 * the run's event stream ends with it: it completes with the output, or
 * errors with the error the promise rejects with.
 *
 * @example
 * const result = runOutput<RunResult>(actor, events, () => stateChanges.unsubscribe());
 */
export function runOutput<T>(
  actor: EndingActor,
  events: EventStreamEnd,
  release: () => void,
  output: () => unknown = () => actor.getSnapshot().output,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    actor.subscribe({
      complete: () => {
        release();
        events.complete();
        resolve(output() as T);
      },
      error: (error) => {
        release();
        events.error(error);
        reject(error);
      },
    });
  });
}
