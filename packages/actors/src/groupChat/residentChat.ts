import type { Actor, SnapshotFrom } from 'xstate';
import { type InspectOption, combineInspectors } from '../inspection/inspectOption.js';
import { globalInspectors } from '../inspection/runObservers.js';
import type { Resident } from '../participant/residence.js';
import type { RootActor } from '../rootRun/startRootRun.js';
import type { GroupChatResult } from './groupChatTypes.js';
import type { ChatEvent } from '../participant/chatEvent.js';
import { type ManagerEvent, type ManagerInput, RUN_ENDED, type RunEndedEvent, type managerMachine } from './managerMachine.js';
import { createManagerActor } from './resumedManager.js';

type ManagerActor = Actor<typeof managerMachine>;
type ManagerSnapshot = SnapshotFrom<typeof managerMachine>;

/** What a chat run's root actor is to `startRootRun` and the run's handle: a manager actor, or one run of a resident one (`ResidentChat.run`). */
export interface ManagerRunActor extends RootActor<ChatEvent> {
  send(event: ManagerEvent): void;
  getSnapshot(): ManagerSnapshot;
}

/**
 * A nested chat's resident manager for one outer run (see
 * `ManagerInput.resident`), kept in the residence of the nested chat's
 * resident participant: its first run creates the manager actor, each
 * later run is a `run` command to it. Each run is seen through a
 * `ManagerRunActor` that looks like the root actor of that run alone — it
 * takes events only while its run goes on, and is done, with the run's
 * output, when the run ends — so the run is started and handled exactly
 * as a standalone run (`startChatRun`). Stopped with the residence (the
 * outer run's end): a run still going on is aborted first, as its own
 * actor would be by the turn's `signal`.
 *
 * @example
 * const resident = residence.keep(chat, () => new ResidentChat(), (kept) => kept.usable());
 * const actor = resident.run(input, inspect); // then startChatRun's per-run wiring, as for a new actor
 */
export class ResidentChat implements Resident {
  #actor: ManagerActor | undefined;
  #current: ResidentRun | undefined;
  /** The global inspectors (`observeAllRuns`) the actor was made with: an actor's inspectors are fixed when it is made. */
  #globals: readonly InspectOption[] = [];

  /** Whether the manager can take another run: it has not failed nor been stopped, and the global inspectors are the ones it was made with. */
  usable(): boolean {
    if (this.#actor === undefined) return true;
    const globals = globalInspectors();
    const same = globals.length === this.#globals.length && globals.every((inspector, index) => inspector === this.#globals[index]);
    return same && this.#actor.getSnapshot().status === 'active';
  }

  /** A new run on `input`: the manager made now (its first run, seen by `inspect` and the global inspectors), or set up for it by a `run` command. */
  run(
    input: ManagerInput,
    inspect: InspectOption | undefined,
  ): ManagerRunActor & { readonly manager: ManagerActor; readonly output: GroupChatResult | undefined; readonly ended: boolean } {
    // A run that never began (its tool sources failed to load) takes nothing more.
    this.#current?.supersede();
    let actor = this.#actor;
    // A run resumed in an agent's turn starts from a restored manager (`createManagerActor`): the residence's manager gives way to it.
    if (actor !== undefined && input.resumeWaiting?.into === 'agent') {
      actor.stop();
      actor = undefined;
    }
    const fresh = actor === undefined;
    if (actor === undefined) {
      this.#globals = globalInspectors();
      actor = createManagerActor({ ...input, resident: true }, combineInspectors(inspect, ...this.#globals));
      this.#actor = actor;
    } else actor.send({ type: 'run', input: { ...input, resident: true } });
    const run = new ResidentRun(actor, fresh);
    this.#current = run;
    return run;
  }

  stop(): void {
    this.#current?.abortBeforeStop();
    this.#actor?.stop();
  }
}

/** One run of a resident manager, seen as the root actor of that run alone. */
class ResidentRun implements ManagerRunActor {
  /** Whether this run has ended: the manager reported its output (`RUN_ENDED`) and went back to `idle`. */
  get ended(): boolean {
    return this.#output !== undefined;
  }

  /** The output the manager reported at this run's end (see `RootRunOptions.output`). */
  get output(): GroupChatResult | undefined {
    return this.#output;
  }

  /** The resident manager actor this run steps (what the run's handle shows as its `actor`). */
  get manager(): ManagerActor {
    return this.#actor;
  }

  readonly #actor: ManagerActor;
  /** Whether this run made the actor (and so starts it). */
  readonly #fresh: boolean;
  #started = false;
  #end: ManagerSnapshot | undefined;
  #output: GroupChatResult | undefined;
  readonly #handlers = new Set<(event: ChatEvent) => void>();
  readonly #observers = new Set<{ complete?: () => void; error?: (error: unknown) => void }>();
  readonly #listening: { unsubscribe(): void }[];

  constructor(actor: ManagerActor, fresh: boolean) {
    this.#actor = actor;
    this.#fresh = fresh;
    this.#listening = [actor.on('*', (event) => this.#emitted(event)), actor.subscribe({ error: (error) => this.#failed(error) })];
  }

  start(): void {
    this.#started = true;
    // (Never a stopped actor: XState would start it again.)
    if (this.#fresh && this.#end === undefined && this.#actor.getSnapshot().status === 'active') this.#actor.start();
  }

  send(event: ManagerEvent): void {
    if (this.#end === undefined) this.#actor.send(event);
  }

  getSnapshot(): ManagerSnapshot {
    return this.#end ?? this.#actor.getSnapshot();
  }

  on(_type: '*', handler: (event: ChatEvent) => void): { unsubscribe(): void } {
    this.#handlers.add(handler);
    return { unsubscribe: () => this.#handlers.delete(handler) };
  }

  subscribe(observer: { complete?: () => void; error?: (error: unknown) => void }): { unsubscribe(): void } {
    this.#observers.add(observer);
    return { unsubscribe: () => this.#observers.delete(observer) };
  }

  /**
   * The resident is stopped while this run goes on (the outer run ended
   * before the run could take the abort its turn's `signal` gave it: it had
   * not started yet). The run is aborted first, so that its result is an
   * aborted run's; its events from here on are not put out, as a run of its
   * own would put them out only after the outer run's events had ended.
   */
  abortBeforeStop(): void {
    if (this.#end !== undefined) return;
    this.#handlers.clear();
    if (this.#fresh && !this.#started) this.start();
    this.#actor.send({ type: 'abort' });
  }

  /** A later run took the actor: this one (which never began) hears nothing more. */
  supersede(): void {
    if (this.#end === undefined) this.#finish(this.#actor.getSnapshot());
  }

  #emitted(event: ChatEvent | RunEndedEvent): void {
    if (this.#end !== undefined) return;
    if (event.type !== RUN_ENDED) {
      for (const handler of this.#handlers) handler(event);
      return;
    }
    this.#output = event.output;
    this.#finish(this.#actor.getSnapshot());
    for (const observer of this.#observers) observer.complete?.();
  }

  #failed(error: unknown): void {
    if (this.#end !== undefined) return;
    this.#finish(this.#actor.getSnapshot());
    for (const observer of this.#observers) observer.error?.(error);
  }

  #finish(end: ManagerSnapshot): void {
    this.#end = end;
    for (const listening of this.#listening) listening.unsubscribe();
  }
}
