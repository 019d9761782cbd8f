import type { StateChange, StateRecord } from '@agentchart/core';
import { ownRecord } from '@agentchart/core/internal';
import { type AnyActorRef, createActor } from 'xstate';
import {
  SHARED_STATE_SYSTEM_ID,
  type SharedStateContext,
  type SharedStateRef,
  isSharedStateRunning,
  sharedStateMachine,
} from './sharedStateMachine.js';

/** Where a lazily created actor's owner is: not started yet, running, or ended. */
enum OwnerPhase {
  NotStarted = 0,
  Running = 1,
  Ended = 2,
}

type ChangeListener = (change: StateChange) => void;

/** A listener added before the actor was made; `detach` once it is attached to the actor. */
interface WaitingListener {
  listener: ChangeListener;
  detach: (() => void) | undefined;
}

/** What a restored run's context holds before XState revives it into the child actor (see `SharedStateSlot.restored`). */
interface ActorMarker {
  xstate$$type: 1;
  id: string;
}

/**
 * A run's (or a chat's) shared state, whose actor is made only when
 * something needs it (most runs never write it). Until then
 * reads give the initial values and `changes$` listeners wait for it; the
 * first write while the owner runs, a persisted snapshot or the public
 * `ref` makes the actor (a child of the owner, systemId `sharedState`, the
 * same actor a spawn makes), started at once when the owner runs, or when it
 * starts. Its owner's root run opens the slot before the owner starts and
 * closes it when the owner ends; the owner's machine stops the actor with
 * XState's `stopChild` as it ends (`ownActor`), as it stops a spawned child.
 *
 * A slot can also hold an actor made elsewhere or restored (a resumed
 * run): then it only passes the actor on.
 *
 * @example
 * const slot = SharedStateSlot.lazy(self, { count: 0 });
 * slot.values(); // { count: 0 }, no actor made
 * slot.ref.send({ type: 'state.write', key: 'count', value: 1, deleted: false });
 */
export class SharedStateSlot {
  /**
   * The actor, once there is one. The slot's only enumerable field: XState
   * revives a restored run's actor reference into it (see `restored`).
   */
  actor: SharedStateRef | undefined;
  /** The actor that a lazily created actor belongs to; absent when the slot only passes an actor on. */
  #owner: AnyActorRef | undefined;
  readonly #initial: StateRecord;
  /** The id of a lazily made actor (`sharedState`, as its spawn names it). */
  readonly #id: string | undefined;
  #phase: OwnerPhase = OwnerPhase.NotStarted;
  /** `onChange` listeners added before the actor was made. */
  #waiting: WaitingListener[] | undefined;

  private constructor(actor: SharedStateRef | ActorMarker | undefined, owner: AnyActorRef | undefined, initial: StateRecord, id: string | undefined) {
    this.actor = actor as SharedStateRef | undefined;
    this.#owner = owner;
    this.#initial = initial;
    this.#id = id;
  }

  /** A slot over an actor that exists already (spawned by XState, or made by the caller). */
  static of(actor: SharedStateRef): SharedStateSlot {
    return new SharedStateSlot(actor, undefined, {}, undefined);
  }

  /** A slot whose actor, a child of `owner` with these initial values (and this `id`, if any), is made on first use. */
  static lazy(owner: AnyActorRef, initial: StateRecord, id?: string): SharedStateSlot {
    // A copy without a prototype, as the actor's own context holds them.
    return new SharedStateSlot(undefined, owner, ownRecord(initial), id);
  }

  /**
   * A lazy slot whose owner is made after it: a chat resumed from its
   * manager's snapshot holds the slot in that snapshot. `adopt` names the
   * owner before it starts.
   *
   * @example
   * const slot = SharedStateSlot.ownerToCome({ count: 0 }, 'sharedState');
   * const manager = createActor(managerMachine, { snapshot: withSlot(slot) });
   * slot.adopt(manager);
   */
  static ownerToCome(initial: StateRecord, id?: string): SharedStateSlot {
    return new SharedStateSlot(undefined, undefined, ownRecord(initial), id);
  }

  /** The owner of a slot made before it (`ownerToCome`), named before the owner starts. */
  adopt(owner: AnyActorRef): void {
    if (this.#owner !== undefined || this.actor !== undefined)
      throw new Error('Only a slot made with ownerToCome, before its actor, takes an owner.');
    this.#owner = owner;
  }

  /**
   * The slot of a restored run's context: it holds XState's persisted
   * reference to the `sharedState` child, which XState replaces with the
   * restored child actor when it restores the snapshot.
   */
  static restored(): SharedStateSlot {
    return new SharedStateSlot({ xstate$$type: 1, id: SHARED_STATE_SYSTEM_ID }, undefined, {}, undefined);
  }

  /** The actor, made now when there is none yet (started when its owner runs). */
  get ref(): SharedStateRef {
    return this.actor ?? this.#create();
  }

  /** The current values: the actor's, or the initial values while there is no actor. */
  values(): StateRecord {
    return this.actor === undefined ? this.#initial : this.actor.getSnapshot().context.values;
  }

  /** Whether the slot makes its actor as a child of `owner` (the owner's persisted snapshot lists it among its children). */
  isOwnedBy(owner: AnyActorRef): boolean {
    return this.#owner === owner;
  }

  /** The actor's id as a persisted reference to it names it (without making it). */
  persistedId(): string {
    return this.actor?.id ?? this.#id ?? SHARED_STATE_SYSTEM_ID;
  }

  /** The actor's context as a persisted snapshot holds it: the values and how many changes were applied. */
  persistedContext(): SharedStateContext {
    return this.actor === undefined ? { values: this.#initial, version: 0 } : this.actor.getSnapshot().context;
  }

  /**
   * The actor to write to now, made if the owner runs and there is none yet;
   * `undefined` when a write cannot be applied at once (the owner has not
   * started or has ended).
   */
  writable(): SharedStateRef | undefined {
    if (this.#owner !== undefined && this.#phase !== OwnerPhase.Running) return undefined;
    if (this.actor !== undefined) return isSharedStateRunning(this.actor) ? this.actor : undefined;
    return this.#create();
  }

  /**
   * The actor this slot made as a child of `owner`, if it made one: the
   * owner's machine stops it with `stopChild` as it ends (XState stops only
   * the children it spawned itself).
   *
   * @example
   * enqueueActions(({ context, enqueue, self }) => {
   *   const actor = context.sharedState.ownActor(self);
   *   if (actor !== undefined) enqueue.stopChild(actor);
   * });
   */
  ownActor(owner: AnyActorRef): SharedStateRef | undefined {
    return this.#owner === owner ? this.actor : undefined;
  }

  /** Calls `listener` with every change; a listener added before the actor exists is attached when it is made. */
  onChange(listener: ChangeListener): () => void {
    if (this.actor !== undefined) {
      const subscription = this.actor.on('state.changed', (event) => listener(event.change));
      return () => subscription.unsubscribe();
    }
    const waiting: WaitingListener = { listener, detach: undefined };
    this.#waiting ??= [];
    this.#waiting.push(waiting);
    return () => {
      if (waiting.detach !== undefined) return waiting.detach();
      const index = this.#waiting?.indexOf(waiting) ?? -1;
      if (index >= 0) this.#waiting?.splice(index, 1);
    };
  }

  /** The owner is about to start: an actor made before is started with it, one made later at once. */
  open(): void {
    if (this.#owner === undefined || this.#phase !== OwnerPhase.NotStarted) return;
    this.#phase = OwnerPhase.Running;
    this.actor?.start();
  }

  /** The owner ended: no write is applied any more (its machine stopped the actor, see `ownActor`). */
  close(): void {
    if (this.#owner !== undefined) this.#phase = OwnerPhase.Ended;
  }

  #create(): SharedStateRef {
    const owner = this.#owner as AnyActorRef;
    const actor = createActor(sharedStateMachine, {
      parent: owner,
      ...(this.#id === undefined ? {} : { id: this.#id }),
      systemId: SHARED_STATE_SYSTEM_ID,
      src: 'sharedState',
      input: { initial: this.#initial },
    });
    this.actor = actor;
    for (const waiting of this.#waiting ?? []) {
      const subscription = actor.on('state.changed', (event) => waiting.listener(event.change));
      waiting.detach = () => subscription.unsubscribe();
    }
    this.#waiting = undefined;
    if (this.#phase === OwnerPhase.Running) actor.start();
    return actor;
  }
}
