import type { Subject } from 'rxjs';

/**
 * The way a run's events reach its bus when some must wait for a write: an
 * event `holds` returns a promise for is published once that promise
 * settles (a wait for approval, once the store has the wait), and every
 * event after it waits behind it, in order, as does the end of the stream.
 * With nothing held an event goes straight onto the bus.
 *
 * @example
 * const gate = new AnnouncementGate(bus, (event) => (event.type === 'approval.requested' ? writer.idle() : undefined));
 * actor.on('*', gate.next);
 */
export class AnnouncementGate<Event> {
  readonly #bus: Subject<Event>;
  readonly #holds: ((event: Event) => Promise<unknown> | undefined) | undefined;
  /** What waits behind a held event, in order (the held event first). */
  readonly #queue: (() => void)[] = [];
  #held = false;

  constructor(bus: Subject<Event>, holds: ((event: Event) => Promise<unknown> | undefined) | undefined) {
    this.#bus = bus;
    this.#holds = holds;
  }

  readonly next = (event: Event): void => {
    if (this.#held) {
      this.#queue.push(() => this.next(event));
      return;
    }
    const written = this.#holds?.(event);
    if (written === undefined) {
      this.#bus.next(event);
      return;
    }
    this.#held = true;
    // First in the queue: what was queued behind it (while the queue drains) came after it.
    this.#queue.unshift(() => this.#bus.next(event));
    const release = () => {
      this.#held = false;
      this.#drain();
    };
    written.then(release, release);
  };

  readonly complete = (): void => this.#end(() => this.#bus.complete());

  readonly error = (error: unknown): void => this.#end(() => this.#bus.error(error));

  #end(end: () => void): void {
    if (this.#held) this.#queue.push(end);
    else end();
  }

  #drain(): void {
    while (!this.#held && this.#queue.length > 0) this.#queue.shift()?.();
  }
}

/**
 * The `announceAfter` option of a run kept in a store: a wait for approval
 * (an event `isWait` picks) is announced once `written()` says the store has
 * it, so a crash cannot take back a request a person saw. Without a store
 * (`written` undefined) nothing waits.
 *
 * @example
 * startRootRun(actor, { ...options, ...announceWaitsOnceWritten(checkpoints?.written, (event) => event.type === 'approval.requested') });
 */
export function announceWaitsOnceWritten<Event>(
  written: (() => Promise<void>) | undefined,
  isWait: (event: Event) => boolean,
): { announceAfter?: (event: Event) => Promise<void> | undefined } {
  if (written === undefined) return {};
  return { announceAfter: (event) => (isWait(event) ? written() : undefined) };
}
