import type { RunEvent } from '@agentchart/core';
import type { Observable } from 'rxjs';
import type { InspectOption } from './inspectOption.js';

/** A run as observers see it: its id, its events and its root actor. */
export interface ObservedRun {
  readonly runId: string;
  readonly events$: Observable<RunEvent>;
}

/** Watches every run started in this process (agents and chats). */
export interface RunObserver {
  /** Handed to the root actor of every run, beside the run's own `inspect`. */
  inspect?: InspectOption;
  /** Called with each run's handle as it starts, before its first event. */
  onRun?(run: ObservedRun): void;
}

const observers = new Set<RunObserver>();

/**
 * Observes every run this process starts, without touching the code that
 * starts them: how `agentchart view` and `agentchart record` watch an example.
 * Returns a function that stops observing.
 *
 * @example
 * const stop = observeAllRuns({ inspect: recorder.inspect, onRun: (run) => recorder.recordRun(run) });
 * await import('./myExample.js');
 * stop();
 */
export function observeAllRuns(observer: RunObserver): () => void {
  observers.add(observer);
  return () => void observers.delete(observer);
}

/** The `inspect` options of every run observer (for the code that starts a run). */
export function globalInspectors(): InspectOption[] {
  return [...observers].flatMap((observer) => (observer.inspect ? [observer.inspect] : []));
}

/** Tells every run observer that a run started (for the code that starts a run). */
export function announceRun(run: ObservedRun): void {
  for (const observer of observers) observer.onRun?.(run);
}
