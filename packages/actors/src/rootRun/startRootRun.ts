import type { StateChange } from '@agentchart/core';
import type { Observable, Subject } from 'rxjs';
import { runOutput } from './runOutput.js';
import type { RunHandle } from './runHandle.js';
import { AnnouncementGate } from './announcementGate.js';
import { type SharedStateHandle, type SharedStateHandleOptions, slotStateHandle } from '../sharedState/sharedStateHandle.js';
import type { SharedStateSlot } from '../sharedState/sharedStateSlot.js';

/**
 * What a run's root actor must offer: an XState actor, or one run of a
 * resident actor seen as the root actor of that run alone (`ResidentChat`).
 */
export interface RootActor<Event = unknown> {
  start(): unknown;
  send(event: { type: string }): void;
  getSnapshot(): { status: string; output?: unknown };
  on(type: '*', handler: (event: Event) => void): { unsubscribe(): void };
  subscribe(observer: { complete?: () => void; error?: (error: unknown) => void }): { unsubscribe(): void };
}

/** How a run's root actor is started: the parts where an agent run and a chat run differ. */
export interface RootRunOptions<Event> {
  /** The run's event stream: the root actor's emitted events go onto it (and whatever else the caller puts there). */
  bus: Subject<Event>;
  /** The run's `signal` option: aborting it aborts the run. */
  signal: AbortSignal | undefined;
  /** Whether the run begins with a `start` event (a resumed agent run goes on from its snapshot without one). */
  sendStart: boolean;
  /** The event it begins with, when `sendStart` (default `{ type: 'start' }`; a run restored from a store checkpoint gets `resume`). */
  startEvent?: { type: string };
  /**
   * The root actor's shared state, and the handle's options (an agent's
   * state schema). The run opens the slot just before the actor starts and
   * closes it when the actor ends (see `SharedStateSlot`).
   */
  sharedState: { slot: SharedStateSlot; options?: SharedStateHandleOptions };
  /** The run event that reports a change of the shared state. */
  stateEvent(change: StateChange): Event;
  /**
   * Whether an abort right now waits until the root actor has taken its
   * `start` event (a resumed chat aborted before it started is aborted inside
   * the turn it resumes, so that turn is kept); default never.
   */
  holdAbort?(): boolean;
  /**
   * Work before the actor may start (a chat loads its agents' tool
   * sources): the actor starts once `ready` resolves. Aborting the run
   * meanwhile calls `cancel`, and the run then ends aborted; when `ready`
   * rejects otherwise, the run fails with its error (`result` rejects,
   * `events$` errors) and the actor never starts.
   */
  prepare?: { ready: Promise<void>; cancel(): void };
  /** Called when the run ends, before its event stream ends (stops what fed the bus besides the actor). */
  release?(): void;
  /**
   * The run's output once its root actor completes; default its snapshot's
   * `output`. A run of a resident manager gives the output the manager
   * reported for it (`ResidentRun.output`): that actor lives on.
   */
  output?(): unknown;
  /**
   * An event that reaches the bus only once the promise returned for it
   * settles (a run kept in a store announces a wait once the store has it);
   * the events after it, and the stream's end, wait behind it. Default: none waits.
   */
  announceAfter?(event: Event): Promise<unknown> | undefined;
}

/** A started root actor: the parts of its handle every run has (see `RunHandle`). */
export interface RootRun<Event, Result> extends Pick<RunHandle<Event, Result>, 'events$' | 'result' | 'state' | 'abort'> {
  /** Puts an event on the run's stream in its order (behind a held announcement, see `announceAfter`). */
  readonly publish: (event: Event) => void;
}

/**
 * Starts a run's root actor (an agent machine or a group-chat manager) the
 * one way every run starts: its emitted events and its shared state's changes
 * go onto the run's bus; on the next microtask (so that a caller subscribing
 * right after sees every event), or once `prepare` is ready, the actor
 * starts, the `signal` is wired to abort it, and it gets its `start` event;
 * `result` is its output, and the bus completes with it (or errors with the
 * actor's error).
 *
 * @example
 * const root = startRootRun<RunEvent, RunResult>(actor, {
 *   bus: new Subject(), signal, sendStart: true,
 *   sharedState: { slot: actor.getSnapshot().context.sharedState },
 *   stateEvent: (change) => stateChangedEvent(change, runId, name),
 * });
 */
export function startRootRun<Event, Result>(actor: RootActor<Event>, options: RootRunOptions<Event>): RootRun<Event, Result> {
  const { bus, signal } = options;
  const gate = options.announceAfter === undefined ? undefined : new AnnouncementGate(bus, options.announceAfter);
  const publish = gate?.next ?? ((event: Event) => bus.next(event));
  actor.on('*', publish);
  const { slot } = options.sharedState;
  const stopStateChanges = slot.onChange((change) => publish(options.stateEvent(change)));
  const finished = runOutput<Result>(
    actor,
    gate ?? bus,
    () => {
      slot.close();
      options.release?.();
      stopStateChanges();
    },
    options.output,
  );

  const { prepare } = options;
  let preparing = prepare !== undefined;
  let cancelled = false;
  let abortAfterStart = false;
  const abort = () => {
    if (preparing) {
      // Still preparing: stop that; the run then starts aborted.
      cancelled = abortAfterStart = true;
      prepare?.cancel();
    } else if (options.holdAbort?.() === true) abortAfterStart = true;
    else actor.send({ type: 'abort' });
  };
  const begin = () => {
    slot.open();
    actor.start();
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
    if (actor.getSnapshot().status !== 'active') return; // aborted before it started
    // Aborted while preparing, with no turn to keep: it ends without starting.
    if (abortAfterStart && options.holdAbort?.() !== true) return void actor.send({ type: 'abort' });
    if (options.sendStart) actor.send(options.startEvent ?? { type: 'start' });
    if (abortAfterStart) actor.send({ type: 'abort' });
  };

  let result = finished;
  if (prepare === undefined) queueMicrotask(begin);
  else {
    const stopPreparing = () => abort();
    if (signal?.aborted) stopPreparing();
    else signal?.addEventListener('abort', stopPreparing, { once: true });
    const settled = () => {
      signal?.removeEventListener('abort', stopPreparing);
      preparing = false;
    };
    prepare.ready.then(
      () => {
        settled();
        begin();
      },
      () => {
        settled();
        if (cancelled) begin(); // aborted while preparing: the run ends `aborted`
      },
    );
    result = prepare.ready.then(
      () => finished,
      (error: unknown) => {
        if (cancelled) return finished;
        stopStateChanges();
        bus.error(error);
        throw error;
      },
    );
  }
  // The caller's `await run.result` sees a rejection; this chain only removes the listener.
  if (signal === undefined) void result.catch(() => undefined);
  else void result.finally(() => signal.removeEventListener('abort', abort)).catch(() => undefined);

  return new StartedRootRun(bus.asObservable(), publish, result, abort, slot, options.sharedState.options);
}

/**
 * A started root run. A class rather than an object literal with a `state`
 * getter, which V8 builds on its slow path (about 1 KiB and a microsecond per
 * run). The state handle is made when first asked for: most runs never read
 * their shared state from outside.
 */
class StartedRootRun<Event, Result> implements RootRun<Event, Result> {
  #state: SharedStateHandle | undefined;

  constructor(
    readonly events$: Observable<Event>,
    readonly publish: (event: Event) => void,
    readonly result: Promise<Result>,
    readonly abort: () => void,
    private readonly slot: SharedStateSlot,
    private readonly stateOptions: SharedStateHandleOptions | undefined,
  ) {}

  get state(): SharedStateHandle {
    this.#state ??= slotStateHandle(this.slot, this.stateOptions);
    return this.#state;
  }
}
