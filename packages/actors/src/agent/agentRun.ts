import type { Message, RunEvent } from '@agentchart/core';
import { Observable, Subject } from 'rxjs';
import { type Actor, createActor } from 'xstate';
import { newRunId } from '../ids.js';
import { agentMachine } from './agentMachine.js';
import type { AgentRuntime } from './agentRuntime.js';
import type { RunResult } from './runResult.js';
import type { InspectOption } from '../inspection/inspectOption.js';
import { announceRun } from '../inspection/runObservers.js';
import { type SharedStateHandle, sharedStateHandle } from '../sharedState/sharedStateHandle.js';
import { stateChangedEvent } from '../sharedState/stateChangedEvent.js';
import type { StateRecord } from '@agentchart/core';

/** A running (or finished) agent run. */
export interface AgentRun {
  readonly runId: string;
  /**
   * Every event of the run, from `run.started` to `run.finished`. The run
   * starts on the next microtask, so subscribing right after `run()` sees all.
   */
  readonly events$: Observable<RunEvent>;
  /** Resolves when the run ends, whatever the reason (see `stopReason`). */
  readonly result: Promise<RunResult>;
  /** Ends the run with stop reason `aborted`. */
  abort(): void;
  /**
   * The run's shared state: read it, observe `changes$`, or write it while
   * the run is going (writes before the run starts or after it ends throw).
   */
  readonly state: SharedStateHandle;
  /** The root actor, for inspection. */
  readonly actor: Actor<typeof agentMachine>;
}

/** Starts the agent machine for one run and wires its handle. */
export function startAgentRun(
  runtime: AgentRuntime,
  input: Message[],
  signal: AbortSignal | undefined,
  initialState: StateRecord = {},
  inspect?: InspectOption,
): AgentRun {
  const runId = newRunId();
  const events = new Subject<RunEvent>();
  const actor = createActor(agentMachine, {
    input: { runtime, runId, messages: input, state: { initial: initialState } },
    ...(inspect ? { inspect } : {}),
  });
  actor.on('*', (event) => events.next(event));
  const state = sharedStateHandle(actor.getSnapshot().context.sharedState, { schema: runtime.stateSchema });
  const stateChanges = state.changes$.subscribe((change) => events.next(stateChangedEvent(change, runId, runtime.agentName)));

  const result = new Promise<RunResult>((resolve, reject) => {
    actor.subscribe({
      complete: () => {
        stateChanges.unsubscribe();
        events.complete();
        resolve(actor.getSnapshot().output as RunResult);
      },
      error: (error) => {
        events.error(error);
        reject(error);
      },
    });
  });

  const abort = () => actor.send({ type: 'abort' });
  queueMicrotask(() => {
    actor.start();
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort, { once: true });
    actor.send({ type: 'start' });
  });
  void result.finally(() => signal?.removeEventListener('abort', abort));

  const run: AgentRun = { runId, events$: events.asObservable(), result, abort, state, actor };
  announceRun(run);
  return run;
}
