import type { AnyActorRef, ActorRefLike, InspectionEvent } from 'xstate';

/** What is known of an actor's parent: the parent, `null` for none, `undefined` while XState has not said. */
export type KnownParent = ActorRefLike | null | undefined;

/**
 * Each actor's parent, learnt from XState's inspection events alone. XState
 * names an actor (`@xstate.actor`) when it is made, before it is its
 * parent's child, and says whose child it is later:
 *
 * - the root of a system is the actor whose session id is the events' `rootId`;
 * - a child that starts is sent `xstate.init` by its parent (the event's `sourceRef`);
 * - a child that never starts (restored already done) is in its parent's
 *   snapshot's `children`, in a microstep or a snapshot event.
 *
 * An actor made while its system's root has not started yet waits for the
 * root: its start starts them. An actor whose system has started and that
 * still has no parent once the work of the moment is done never started and
 * no snapshot lists it: `settleUnknown` gives it none.
 *
 * @example
 * const parents = actorParents();
 * const inspect = (event: InspectionEvent) => {
 *   parents.observe(event);
 *   parents.parentOf(event.actorRef); // undefined until XState has said
 * };
 */
export interface ActorParents {
  /** Learns what `event` tells of parents. */
  observe(event: InspectionEvent): void;
  parentOf(actor: ActorRefLike): KnownParent;
  /** Whether `actor` and each of its ancestors have a known parent. */
  isTraced(actor: ActorRefLike): boolean;
  /** Gives every actor of `actors` (and their ancestors) that XState can no longer place no parent; whether any is left waiting. */
  settleUnknown(actors: readonly ActorRefLike[]): boolean;
}

export function actorParents(): ActorParents {
  const parents = new WeakMap<object, ActorRefLike | null>();
  // Systems seen being made, and those whose root has started: until then a child made in it may start later.
  const seenSystems = new WeakSet<object>();
  const startedSystems = new WeakSet<object>();
  const learn = (actor: ActorRefLike, parent: ActorRefLike | null) => {
    if (!parents.has(actor)) parents.set(actor, parent);
  };
  const learnChildren = (parent: ActorRefLike, snapshot: unknown) => {
    const children = (snapshot as { children?: unknown } | undefined)?.children;
    if (typeof children !== 'object' || children === null) return;
    for (const child of Object.values(children)) if (typeof child === 'object' && child !== null) learn(child as ActorRefLike, parent);
  };
  const systemOf = (actor: ActorRefLike) => ((actor as AnyActorRef).system ?? actor) as object;
  const parentOf = (actor: ActorRefLike) => parents.get(actor);

  return {
    observe(event) {
      switch (event.type) {
        case '@xstate.actor':
          seenSystems.add(systemOf(event.actorRef));
          if (event.actorRef.sessionId === event.rootId) learn(event.actorRef, null);
          return;
        case '@xstate.event':
          if (event.event.type === 'xstate.init') {
            learn(event.actorRef, event.sourceRef ?? null);
            if (event.sourceRef === undefined) startedSystems.add(systemOf(event.actorRef));
          } else if (event.sourceRef === undefined && event.actorRef.sessionId === event.rootId) {
            // Sent from outside: the target is of this system, and its root (an inspector attached late sees it so).
            learn(event.actorRef, null);
          }
          return;
        case '@xstate.microstep':
        case '@xstate.snapshot':
          if (event.actorRef.sessionId === event.rootId) {
            learn(event.actorRef, null);
            startedSystems.add(systemOf(event.actorRef));
          }
          learnChildren(event.actorRef, event.snapshot);
          return;
        default:
          return;
      }
    },
    parentOf,
    isTraced(actor) {
      for (let current: KnownParent = actor; current !== null; current = parentOf(current)) {
        if (current === undefined) return false;
      }
      return true;
    },
    settleUnknown(actors) {
      let waiting = false;
      for (const actor of actors) {
        for (let current: KnownParent = actor; current !== null; current = parentOf(current)) {
          if (current === undefined) break;
          if (parentOf(current) !== undefined) continue;
          const system = systemOf(current);
          if (seenSystems.has(system) && !startedSystems.has(system)) {
            waiting = true;
            break;
          }
          parents.set(current, null);
        }
      }
      return waiting;
    },
  };
}
