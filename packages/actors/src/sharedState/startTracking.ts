import type { AnyActorLogic } from 'xstate';

/** Actor logic whose actors are remembered when they start. */
export interface StartTrackedLogic<TLogic extends AnyActorLogic> {
  /** The same logic, its starts tracked. */
  logic: TLogic;
  /** Whether `start()` has been called on this actor of `logic` (fresh or restored from a snapshot). */
  hasStarted(actor: object): boolean;
}

/**
 * Makes actor logic remember its actors once started. XState has no public
 * "has this actor started?" flag, but it calls the logic's documented
 * `start(snapshot, actorScope)` hook whenever an actor starts — freshly
 * created or restored from a persisted snapshot, as a root or as a child.
 * The hook is wrapped on `logic` itself: pass logic made for this purpose
 * (a machine created by the caller), never one shared with other code.
 *
 * @example
 * const { logic, hasStarted } = trackStarts(setup({}).createMachine({ id: 'counter' }));
 * const actor = createActor(logic);
 * hasStarted(actor); // false
 * actor.start();
 * hasStarted(actor); // true
 */
export function trackStarts<TLogic extends AnyActorLogic>(logic: TLogic): StartTrackedLogic<TLogic> {
  const started = new WeakSet<object>();
  const start = logic.start;
  logic.start = function (this: TLogic, snapshot, actorScope) {
    started.add(actorScope.self);
    start?.call(this, snapshot, actorScope);
  };
  return { logic, hasStarted: (actor) => started.has(actor) };
}
