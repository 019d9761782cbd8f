import { type SharedState, SharedStateError, type StateChange, type StateChangeSource, type StateRecord } from '@agentchart/core';
import { getOwn, ownRecord, setOwn } from '@agentchart/core/internal';
import { Observable } from 'rxjs';
import type { z } from 'zod';
import type { SharedStateRef } from './sharedStateMachine.js';
import { SharedStateSlot } from './sharedStateSlot.js';
import { checkStateSchema } from './stateSchemaIssues.js';

/** A `SharedState` over a shared-state actor; `withSource` tags the writes. */
export interface SharedStateHandle<S extends StateRecord = StateRecord> extends SharedState<S> {
  /** The same state, its writes attributed to `source` in change events. */
  withSource(source: StateChangeSource): SharedStateHandle<S>;
  /** The actor behind the handle. */
  readonly ref: SharedStateRef;
}

export interface SharedStateHandleOptions {
  /** Every write is checked against it (the whole state after the write) before it is applied. */
  schema?: z.ZodType<StateRecord> | undefined;
  source?: StateChangeSource;
}

/**
 * The `SharedState` API over a shared-state actor. Reads come from the actor's
 * snapshot; each write is validated against the schema first (an invalid write
 * throws `SharedStateError` and changes nothing) and then sent to the actor,
 * which applies it at once: a running actor processes an event synchronously,
 * so `update` is an atomic read-modify-write.
 *
 * @example
 * const state = sharedStateHandle(run.actor.getSnapshot().context.sharedState);
 * state.changes$.subscribe((change) => console.log(change.key, change.value));
 */
export function sharedStateHandle<S extends StateRecord = StateRecord>(
  ref: SharedStateRef,
  options: SharedStateHandleOptions = {},
): SharedStateHandle<S> {
  return slotStateHandle<S>(SharedStateSlot.of(ref), options);
}

/**
 * The `SharedState` API over a shared-state slot (see `SharedStateSlot`):
 * reads and `changes$` make no actor; the first write while the owner runs
 * does.
 *
 * @example
 * const state = slotStateHandle(context.sharedState, { schema });
 */
export function slotStateHandle<S extends StateRecord = StateRecord>(
  slot: SharedStateSlot,
  options: SharedStateHandleOptions = {},
): SharedStateHandle<S> {
  const { schema, source } = options;
  const current = (): StateRecord => slot.values();

  const write = (key: string, value: unknown): void => {
    // A write is atomic only when the actor processes it at once: started and not ended.
    const ref = slot.writable();
    if (ref === undefined) {
      throw new SharedStateError(
        'STATE_NOT_RUNNING',
        `Cannot write "${key}": the shared state is not running (its run has not started yet or has ended). ` +
          'Write from tools while the run is going, or pass initial values when the run is created.',
        { key },
      );
    }
    const values = current();
    const deleted = value === undefined;
    if (deleted && !Object.hasOwn(values, key)) return;
    if (schema !== undefined) {
      const next = ownRecord(values);
      if (deleted) delete next[key];
      else setOwn(next, key, value);
      const checked = checkStateSchema(schema, next);
      if (!checked.ok) {
        throw new SharedStateError('STATE_INVALID', `Writing "${key}" would break the shared state's schema: ${checked.issues.join('; ')}.`, {
          key,
          issues: checked.issues,
        });
      }
    }
    ref.send({ type: 'state.write', key, value, deleted, ...(source ? { source } : {}) });
  };

  const changes$ = new Observable<StateChange>((subscriber) => slot.onChange((change) => subscriber.next(change)));

  return {
    get ref() {
      return slot.ref;
    },
    // Own properties only: an unset key is `undefined` whatever its name (`constructor`, `__proto__`, ...).
    get: (key) => getOwn(current(), key) as S[typeof key] | undefined,
    has: (key) => Object.hasOwn(current(), key),
    set: (key, value) => write(key, value),
    delete: (key) => {
      const present = Object.hasOwn(current(), key);
      write(key, undefined);
      return present;
    },
    update: (key, fn) => {
      const next = fn(getOwn(current(), key) as S[typeof key] | undefined);
      if (isThenable(next)) {
        throw new SharedStateError(
          'STATE_INVALID',
          `state.update("${key}", fn): fn returned a Promise; it must return the new value synchronously, ` +
            'so that nothing else writes in between. Await your work first, then update with a synchronous fn.',
          { key },
        );
      }
      write(key, next);
      return next;
    },
    values: () => ownRecord(current()) as Partial<S>,
    changes$,
    withSource: (newSource) => slotStateHandle<S>(slot, { schema, source: newSource }),
  };
}

function isThenable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
