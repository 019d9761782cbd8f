import type { RunEvent } from '@agentchart/core';
import type { Observable } from 'rxjs';
import type { AnyStateMachine } from 'xstate';
import type { InspectOption } from './inspectOption.js';

/** A run as observers see it: its id and its agents' events (for a chat, more below). */
export interface ObservedRun {
  readonly runId: string;
  /** The run events of its agents. */
  readonly events$: Observable<RunEvent>;
  /** A group chat's own name. */
  readonly name?: string;
  /** A group chat's whole event stream (speaker selections, handoffs, its agents' events wrapped). */
  readonly chatEvents$?: Observable<{ type: string }>;
  /** Machines that belong to the run without being its actors (a chat's `speakers` transitions). */
  readonly machines?: Readonly<Record<string, AnyStateMachine>>;
  /**
   * Set for a chat that runs as a turn of another chat (a nested chat): its
   * events also reach the outer chat's `chatEvents$`, inside `nested.event`.
   */
  readonly nested?: true;
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

/** Whether anyone observes every run (`observeAllRuns`): what is built only for run observers can be skipped otherwise. */
export function runsObserved(): boolean {
  return observers.size > 0;
}

/** Tells every run observer that a run started (for the code that starts a run). */
export function announceRun(run: ObservedRun): void {
  for (const observer of observers) observer.onRun?.(run);
}
