import type { ModelEvent } from '@agentchart/core';
import type { Observable } from 'rxjs';

/** Everything a model stream emitted, and how it ended. */
export interface Collected {
  events: ModelEvent[];
  error?: unknown;
}

/** Subscribes and waits for the end (completion or error). */
export function collectEvents(stream: Observable<ModelEvent>): Promise<Collected> {
  return new Promise((resolve) => {
    const events: ModelEvent[] = [];
    stream.subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
      complete: () => resolve({ events }),
    });
  });
}
