import type { ActorRefLike, AnyActorRef } from 'xstate';
import { STATELY_MAX_ENDED_ACTORS } from '../constants.js';
import type { ActorParents } from '../inspection/actorParents.js';
import type { StatelyActorRecord } from './statelyMessages.js';

/**
 * Every actor the Stately inspector has been told about, with its latest
 * snapshot: what an inspector that connects late is told first. Live actors
 * are all kept; of the actors that ended (done, error, stopped) the most
 * recent `maxEnded` are kept, and an actor is forgotten with its ended
 * descendants, so no kept actor names a forgotten parent.
 */
export interface StatelyActors {
  /**
   * The record of `actor`, made the first time it is named, with `snapshot` (default: its snapshot now) as its
   * latest; `onNew` hears of each record made, parents first.
   */
  recordOf(actor: ActorRefLike, onNew?: (record: StatelyActorRecord) => void, snapshot?: unknown): StatelyActorRecord;
  /** Keeps `snapshot` as the actor's latest. */
  update(record: StatelyActorRecord, snapshot: unknown): void;
  /** Every kept actor, parents before children. */
  all(): Iterable<StatelyActorRecord>;
}

/**
 * An actor's parent is what `parents` knows of it when its record is made.
 *
 * @example
 * const actors = statelyActors(parents);
 * const record = actors.recordOf(event.actorRef, (made) => send(announce(made)));
 */
export function statelyActors(parents: ActorParents, maxEnded = STATELY_MAX_ENDED_ACTORS): StatelyActors {
  const records = new Map<string, StatelyActorRecord>();
  const byActor = new WeakMap<ActorRefLike, StatelyActorRecord>();
  const ended = new Set<string>();
  // XState session ids restart at x:0 in every actor system (every run): prefixed by system, they are unique.
  const systems = new WeakMap<object, number>();
  let systemCount = 0;
  const sessionIdOf = (actor: ActorRefLike): string => {
    const system = ((actor as AnyActorRef).system ?? actor) as object;
    let index = systems.get(system);
    if (index === undefined) {
      index = ++systemCount;
      systems.set(system, index);
    }
    return `s${index}/${actor.sessionId}`;
  };

  const recordOf = (actor: ActorRefLike, onNew?: (record: StatelyActorRecord) => void, snapshot?: unknown): StatelyActorRecord => {
    const known = byActor.get(actor);
    if (known !== undefined) return known;
    const parentRef = parents.parentOf(actor);
    const parent = parentRef ? recordOf(parentRef, onNew) : undefined;
    const sessionId = sessionIdOf(actor);
    const logic = (actor as { logic?: unknown }).logic;
    const definitionId = (logic as { config?: { id?: unknown } } | undefined)?.config?.id;
    const { id } = actor as AnyActorRef;
    const record: StatelyActorRecord = {
      sessionId,
      parentId: parent?.sessionId,
      rootId: parent?.rootId ?? sessionId,
      name: id === actor.sessionId && typeof definitionId === 'string' ? definitionId : id,
      logic,
      latest: snapshot ?? actor.getSnapshot() ?? { status: 'active' },
    };
    byActor.set(actor, record);
    records.set(sessionId, record);
    onNew?.(record);
    return record;
  };

  const forgetOldestEnded = () => {
    const forgotten = new Set<string>();
    for (const sessionId of ended) {
      if (ended.size - forgotten.size <= Math.floor(maxEnded * 0.75)) break;
      forgotten.add(sessionId);
    }
    // Parents come before their children in `records`: one pass forgets the ended descendants too.
    for (const [sessionId, record] of records) {
      if (forgotten.has(sessionId) || (record.parentId !== undefined && forgotten.has(record.parentId) && ended.has(sessionId))) {
        forgotten.add(sessionId);
        records.delete(sessionId);
        ended.delete(sessionId);
      }
    }
  };

  return {
    recordOf,
    update(record, snapshot) {
      record.latest = snapshot;
      const status = (snapshot as { status?: unknown } | undefined)?.status;
      if (status !== undefined && status !== 'active' && !ended.has(record.sessionId) && records.has(record.sessionId)) {
        ended.add(record.sessionId);
        if (ended.size > maxEnded) forgetOldestEnded();
      }
    },
    all: () => records.values(),
  };
}
