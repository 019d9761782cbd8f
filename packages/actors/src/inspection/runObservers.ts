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

/**
 * The run observers of the whole process, kept on `globalThis` under a
 * well-known symbol: every copy of this package loaded in the process (the
 * CLI's and a user's script's own `node_modules` copy) shares one set, so
 * `agentchart record` sees the runs of a script that imports another copy.
 */
const REGISTRY = Symbol.for('agentchart.runObservers');
const registry = globalThis as { [REGISTRY]?: Set<RunObserver> };
registry[REGISTRY] ??= new Set<RunObserver>();
const observers: Set<RunObserver> = registry[REGISTRY];

/**
 * Observes every run this process starts, without touching the code that
 * starts them: how `agentchart view` and `agentchart record` watch a script.
 * Every copy of `@agentchart/actors` in the process shares the observers,
 * so a script that imports its own copy is observed too. Returns a function
 * that stops observing.
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
  if (observers.size === 0) return [];
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
