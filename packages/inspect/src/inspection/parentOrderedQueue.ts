import type { ActorRefLike } from 'xstate';
import type { ActorParents } from './actorParents.js';

/**
 * Work done in the order it happened, each piece once the parents of the
 * actors it names are known (see `actorParents`): a piece that waits holds
 * back the pieces after it, so what is written never changes order. Nearly
 * always a piece runs at once; a child waits from its making to its start,
 * which follows in the same turn (or with its root's start).
 *
 * @example
 * const queue = parentOrderedQueue(parents);
 * parents.observe(event);
 * queue.push([event.actorRef], () => write(entryOf(event)));
 */
export interface ParentOrderedQueue {
  /** Runs `work` once each actor of `actors` and its ancestors have a known parent and everything pushed before has run. */
  push(actors: readonly ActorRefLike[], work: () => void): void;
  /** Runs everything still waiting, in order, parents known or not. */
  flush(): void;
}

export function parentOrderedQueue(parents: ActorParents): ParentOrderedQueue {
  const waiting: { actors: readonly ActorRefLike[]; work: () => void }[] = [];
  let checkQueued = false;
  const ready = (actors: readonly ActorRefLike[]) => actors.every((actor) => parents.isTraced(actor));

  const drain = () => {
    while (waiting.length > 0) {
      const next = waiting[0] as (typeof waiting)[number];
      if (!ready(next.actors)) return queueCheck();
      waiting.shift();
      next.work();
    }
  };
  // Once the work of this turn is done, an actor still without a parent never started (unless its root has not yet).
  const queueCheck = () => {
    if (checkQueued) return;
    checkQueued = true;
    queueMicrotask(() => {
      checkQueued = false;
      const next = waiting[0];
      if (next !== undefined && !parents.settleUnknown(next.actors)) drain();
    });
  };

  return {
    push(actors, work) {
      if (waiting.length === 0 && ready(actors)) return work();
      waiting.push({ actors, work });
      drain();
    },
    flush() {
      while (waiting.length > 0) (waiting.shift() as (typeof waiting)[number]).work();
    },
  };
}
