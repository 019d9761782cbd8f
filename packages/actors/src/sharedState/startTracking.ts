import type { AnyActorLogic } from 'xstate';

/** Actor logic whose actors are remembered when they start. */
export interface StartTrackedLogic<TLogic extends AnyActorLogic> {
  /** The same logic; use it wherever the original would be used. */
  logic: TLogic;
  /** Whether `start()` has been called on this actor of `logic` (fresh or restored from a snapshot). */
  hasStarted(actor: object): boolean;
}

/**
 * Wraps actor logic so that its actors are known once started. XState has no
 * public "has this actor started?" flag, but it calls the logic's documented
 * `start(snapshot, actorScope)` hook whenever an actor starts — freshly
 * created or restored from a persisted snapshot, as a root or as a child. The
 * wrapper inherits everything else from `logic` (a machine stays a machine).
 *
 * @example
 * const { logic, hasStarted } = trackStarts(counterMachine);
 * const actor = createActor(logic);
 * hasStarted(actor); // false
 * actor.start();
 * hasStarted(actor); // true
 */
export function trackStarts<TLogic extends AnyActorLogic>(logic: TLogic): StartTrackedLogic<TLogic> {
  const started = new WeakSet<object>();
  const start: NonNullable<AnyActorLogic['start']> = function (this: TLogic, snapshot, actorScope) {
    started.add(actorScope.self);
    logic.start?.call(this, snapshot, actorScope);
  };
  const tracked = Object.create(logic, { start: { value: start } }) as TLogic;
  return { logic: tracked, hasStarted: (actor) => started.has(actor) };
}
