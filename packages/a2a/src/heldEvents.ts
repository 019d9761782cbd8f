import { Observable } from 'rxjs';

/**
 * Subscribes to `source` now and holds its events until the first
 * subscriber comes, which gets them all, then the rest as they come. A run
 * starts on the next microtask; the task that shows it may subscribe a few
 * awaits later (after the store created the run).
 *
 * @example
 * const events$ = heldEvents(chat.run('Plan.').events$);
 * await somethingElse();
 * events$.subscribe(console.log); // from chat.started on
 */
export function heldEvents<T>(source: Observable<T>): Observable<T> {
  let held: T[] | undefined = [];
  let forward: ((event: T) => void) | undefined;
  let done: { error?: unknown } | undefined;
  let finish: ((end: { error?: unknown }) => void) | undefined;
  const end = (how: { error?: unknown }) => {
    if (finish === undefined) done = how;
    else finish(how);
  };
  source.subscribe({
    next: (event) => (forward === undefined ? held?.push(event) : forward(event)),
    error: (error: unknown) => end({ error }),
    complete: () => end({}),
  });
  return new Observable<T>((subscriber) => {
    if (forward !== undefined) throw new Error('heldEvents has one subscriber.');
    forward = (event) => subscriber.next(event);
    finish = (end) => ('error' in end ? subscriber.error(end.error) : subscriber.complete());
    for (const event of held ?? []) subscriber.next(event);
    held = undefined;
    if (done !== undefined) finish(done);
    return () => {
      forward = () => {};
    };
  });
}
