import type { StateChange, StateChangeSource, StateRecord } from '@agentchart/core';
import { getOwn, ownRecord, setOwn } from '@agentchart/core/internal';
import { type ActorRefFrom, enqueueActions, setup } from 'xstate';
import { trackStarts } from './startTracking.js';

/** The system id under which a run's (or chat's) shared state is registered. */
export const SHARED_STATE_SYSTEM_ID = 'sharedState';

/**
 * The shared-state actor's context: plain data, safe to persist. `values` has
 * no prototype and is only read and written through own properties, so no
 * key — `__proto__`, `constructor`, ... — reaches a prototype.
 */
export interface SharedStateContext {
  values: StateRecord;
  /** Counts applied changes. */
  version: number;
}

export interface SharedStateInput {
  initial?: StateRecord;
}

/** Sets (`deleted: false`) or deletes one key. Validation happens before the event is sent. */
export interface StateWriteEvent {
  type: 'state.write';
  key: string;
  value: unknown;
  deleted: boolean;
  source?: StateChangeSource;
}

/** Emitted for every applied change (listen with `ref.on('state.changed', ...)`). */
export interface StateChangedEmitted {
  type: 'state.changed';
  change: StateChange;
}

const sharedState = trackStarts(
  setup({
    types: {
      context: {} as SharedStateContext,
      input: {} as SharedStateInput,
      events: {} as StateWriteEvent,
      emitted: {} as StateChangedEmitted,
    },
  }).createMachine({
    id: 'sharedState',
    context: ({ input }) => ({ values: ownRecord(input.initial), version: 0 }),
    on: {
      'state.write': {
        actions: enqueueActions(({ context, event, enqueue }) => {
          const present = Object.hasOwn(context.values, event.key);
          if (event.deleted && !present) return;
          const values = ownRecord(context.values);
          const previous = getOwn(values, event.key);
          if (event.deleted) delete values[event.key];
          else setOwn(values, event.key, event.value);
          const version = context.version + 1;
          enqueue.assign({ values, version });
          const change: StateChange = {
            key: event.key,
            value: event.deleted ? undefined : event.value,
            previous,
            deleted: event.deleted,
            version,
          };
          if (event.source) change.source = event.source;
          enqueue.emit({ type: 'state.changed', change });
        }),
      },
    },
  }),
);

/**
 * The shared-state actor: the single owner of a run's or a group chat's
 * shared values. It applies writes one at a time, in the order they arrive,
 * and emits each change. Spawn one per run or chat, with systemId
 * `SHARED_STATE_SYSTEM_ID`; use `sharedStateHandle` to read and write it.
 *
 * @example
 * // in a group-chat machine
 * context: ({ spawn, input }) => ({
 *   sharedState: spawn(sharedStateMachine, { systemId: SHARED_STATE_SYSTEM_ID, input: { initial: input.state } }),
 * }),
 */
export const sharedStateMachine = sharedState.logic;

/** A reference to a running shared-state actor. */
export type SharedStateRef = ActorRefFrom<typeof sharedStateMachine>;

/**
 * Whether a shared-state actor processes a write at once: it has been started
 * and has not ended (stopped, done or failed).
 */
export function isSharedStateRunning(ref: SharedStateRef): boolean {
  return sharedState.hasStarted(ref) && ref.getSnapshot().status === 'active';
}
