import type { StatelyActorEvent, StatelyEventEvent, StatelyInspectionEvent, StatelySnapshotEvent } from '@statelyai/inspect';
import type { AnyEventObject } from 'xstate';
import { STATELY_PROTOCOL_VERSION } from '../constants.js';
import { type SanitizeOptions, createSanitizer, sanitizeValue } from '../sanitize/sanitizeValue.js';
import { withType } from '../trace/inspectionEntries.js';

/** What the Stately inspector needs to announce an actor. */
export interface StatelyActorRecord {
  /** Unique across every actor system the inspector sees (`s<system>/<XState session id>`). */
  readonly sessionId: string;
  readonly parentId: string | undefined;
  readonly rootId: string;
  readonly name: string;
  /** The actor's logic: its machine config becomes the definition the inspector draws. */
  readonly logic: unknown;
  /** Its latest snapshot, as XState made it (sanitised only when sent). */
  latest: unknown;
}

/**
 * Builds the messages of the Stately inspection protocol (`@statelyai/inspect`'s
 * `StatelyActorEvent`, `StatelyEventEvent`, `StatelySnapshotEvent`). Only the
 * payloads are sanitised — the snapshot, the event and the machine definition;
 * the protocol's own fields (`type`, `sessionId`, `parentId`, `sourceId`,
 * `rootId`, `id`, `name`, `createdAt`, `_version`) are sent as they are.
 */
export interface StatelyMessages {
  actor(record: StatelyActorRecord): StatelyActorEvent;
  event(sessionId: string, rootId: string, sourceId: string | undefined, event: AnyEventObject): StatelyEventEvent;
  snapshot(sessionId: string, rootId: string, snapshot: unknown, event: AnyEventObject): StatelySnapshotEvent;
}

/** Payloads are nested one level deeper than a context, so they get a little more depth. */
const PAYLOAD_EXTRA_DEPTH = 4;
const DEFAULT_PAYLOAD_DEPTH = 16;

/**
 * The message builder of one inspector: sanitises payloads with `sanitize`,
 * reusing what it made of unchanged parts, and serialises each machine's
 * definition once.
 *
 * @example
 * const messages = statelyMessages({ maxArrayItems: 50 });
 * send(messages.event('s1/x:0', 's1/x:0', undefined, { type: 'go' }));
 */
export function statelyMessages(sanitize: SanitizeOptions = {}): StatelyMessages {
  const maxDepth = sanitize.maxDepth === undefined ? DEFAULT_PAYLOAD_DEPTH : sanitize.maxDepth + PAYLOAD_EXTRA_DEPTH;
  const clean = createSanitizer({ ...sanitize, maxDepth });
  const definitions = new WeakMap<object, string>();
  let sequence = 0;
  const envelope = (sessionId: string, rootId: string) => ({
    sessionId,
    rootId,
    id: `m${++sequence}`,
    createdAt: Date.now().toString(),
    _version: STATELY_PROTOCOL_VERSION,
  });
  const definitionOf = (record: StatelyActorRecord): string => {
    const config = machineConfigOf(record.logic);
    if (config === undefined) return JSON.stringify({ id: record.name });
    let definition = definitions.get(config);
    if (definition === undefined) {
      definition = definitionJson(config, record.name);
      definitions.set(config, definition);
    }
    return definition;
  };
  return {
    actor: (record) => ({
      type: '@xstate.actor',
      ...envelope(record.sessionId, record.rootId),
      name: record.name,
      parentId: record.parentId,
      definition: definitionOf(record),
      snapshot: snapshotPayload(clean(record.latest)),
    }),
    event: (sessionId, rootId, sourceId, event) => ({
      type: '@xstate.event',
      ...envelope(sessionId, rootId),
      sourceId,
      event: withType(event, clean(event)),
    }),
    snapshot: (sessionId, rootId, snapshot, event) => ({
      type: '@xstate.snapshot',
      ...envelope(sessionId, rootId),
      snapshot: snapshotPayload(clean(snapshot)) as StatelySnapshotEvent['snapshot'],
      event: withType(event, clean(event)),
    }),
  };
}

/**
 * Sanitises the payload fields of a message made by any `@statelyai/inspect`
 * inspector (`snapshot`, `event`, `definition`) and leaves its protocol fields
 * as they are.
 *
 * @example
 * sanitizeStatelyPayloads({ type: '@xstate.event', sessionId: 'x:0', event: { type: 'login', password: 'p' } });
 * // → { type: '@xstate.event', sessionId: 'x:0', event: { type: 'login', password: '[redacted]' } }
 */
export function sanitizeStatelyPayloads<E>(message: E, sanitize: SanitizeOptions = {}): E {
  if (typeof message !== 'object' || message === null) return message;
  const fields = message as Partial<StatelyInspectionEvent> & Record<string, unknown>;
  const payload = { ...sanitize, maxDepth: sanitize.maxDepth === undefined ? DEFAULT_PAYLOAD_DEPTH : sanitize.maxDepth + PAYLOAD_EXTRA_DEPTH };
  const result: Record<string, unknown> = { ...fields };
  if ('snapshot' in fields) result.snapshot = sanitizeValue(fields.snapshot, payload);
  if ('event' in fields && typeof fields.event === 'object' && fields.event !== null) {
    result.event = withType(fields.event as AnyEventObject, sanitizeValue(fields.event, payload));
  }
  if (typeof fields.definition === 'string') result.definition = definitionWithoutSecrets(fields.definition);
  return result as E;
}

function snapshotPayload(clean: unknown): StatelyActorEvent['snapshot'] {
  return typeof clean === 'object' && clean !== null && !Array.isArray(clean) ? clean : { status: 'active' };
}

function machineConfigOf(logic: unknown): object | undefined {
  const config = (logic as { config?: unknown } | null | undefined)?.config;
  return typeof config === 'object' && config !== null ? config : undefined;
}

/** The definition keeps its size (no trimming) and loses its secrets; inline functions become `{ type: name }` as in `@statelyai/inspect`. */
const DEFINITION_LIMITS: SanitizeOptions = {
  maxStringLength: Number.MAX_SAFE_INTEGER,
  maxArrayItems: Number.MAX_SAFE_INTEGER,
  maxDepth: 64,
  dropKeys: [],
};

function definitionJson(config: object, name: string): string {
  try {
    const json = JSON.stringify(config, (_key, value: unknown) => (typeof value === 'function' ? { type: value.name || 'anonymous' } : value));
    return definitionWithoutSecrets(json);
  } catch {
    return JSON.stringify({ id: name });
  }
}

function definitionWithoutSecrets(definition: string): string {
  try {
    return JSON.stringify(sanitizeValue(JSON.parse(definition), DEFINITION_LIMITS));
  } catch {
    return '{}';
  }
}
