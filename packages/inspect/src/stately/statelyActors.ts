import type { AnyActorRef } from 'xstate';
import { STATELY_MAX_ENDED_ACTORS } from '../constants.js';
import type { StatelyActorRecord } from './statelyMessages.js';

/**
 * Every actor the Stately inspector has been told about, with its latest
 * snapshot: what an inspector that connects late is told first. Live actors
 * are all kept; of the actors that ended (done, error, stopped) the most
 * recent `maxEnded` are kept, and an actor is forgotten with its ended
 * descendants, so no kept actor names a forgotten parent.
 */
export interface StatelyActors {
  /** The record of `actor`, made the first time it is named; `onNew` hears of each record made, parents first. */
  recordOf(actor: AnyActorRef, onNew?: (record: StatelyActorRecord) => void): StatelyActorRecord;
  /** Keeps `snapshot` as the actor's latest. */
  update(record: StatelyActorRecord, snapshot: unknown): void;
  /** Every kept actor, parents before children. */
  all(): Iterable<StatelyActorRecord>;
}

/**
 * @example
 * const actors = statelyActors();
 * const record = actors.recordOf(event.actorRef, (made) => send(announce(made)));
 */
export function statelyActors(maxEnded = STATELY_MAX_ENDED_ACTORS): StatelyActors {
  const records = new Map<string, StatelyActorRecord>();
  const byActor = new WeakMap<AnyActorRef, StatelyActorRecord>();
  const ended = new Set<string>();
  // XState session ids restart at x:0 in every actor system (every run): prefixed by system, they are unique.
  const systems = new WeakMap<object, number>();
  let systemCount = 0;
  const sessionIdOf = (actor: AnyActorRef): string => {
    const system = (actor.system ?? actor) as object;
    let index = systems.get(system);
    if (index === undefined) {
      index = ++systemCount;
      systems.set(system, index);
    }
    return `s${index}/${actor.sessionId}`;
  };

  const recordOf = (actor: AnyActorRef, onNew?: (record: StatelyActorRecord) => void): StatelyActorRecord => {
    const known = byActor.get(actor);
    if (known !== undefined) return known;
    const parent = actor._parent === undefined ? undefined : recordOf(actor._parent, onNew);
    const sessionId = sessionIdOf(actor);
    const logic = (actor as { logic?: unknown }).logic;
    const definitionId = (logic as { config?: { id?: unknown } } | undefined)?.config?.id;
    const record: StatelyActorRecord = {
      sessionId,
      parentId: parent?.sessionId,
      rootId: parent?.rootId ?? sessionId,
      name: actor.id === actor.sessionId && typeof definitionId === 'string' ? definitionId : actor.id,
      logic,
      latest: actor.getSnapshot() ?? { status: 'active' },
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
