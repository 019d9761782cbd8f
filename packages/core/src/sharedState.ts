import type { Observable } from 'rxjs';
import type { z } from 'zod';
import { AgentchartError } from './errors.js';

/** The values of a shared state: JSON-like data under string keys. */
export type StateRecord = Record<string, unknown>;

/** Who changed a key: the agent, and the tool call when a tool did it. */
export interface StateChangeSource {
  agent?: string;
  toolName?: string;
  callId?: string;
}

/** One change of one key, in the order the state actor applied it. */
export interface StateChange {
  key: string;
  /** The new value; `undefined` when the key was deleted. */
  value: unknown;
  /** The value before the change; `undefined` when the key was absent. */
  previous: unknown;
  deleted: boolean;
  /** Counts every change of the state, from 1. */
  version: number;
  source?: StateChangeSource;
}

/**
 * State shared by the tools and agents of one run (or one group chat),
 * owned by a dedicated actor. Reads are synchronous; every write is one
 * event to the actor, applied in order. A value of `undefined` means "absent":
 * `set(key, undefined)` deletes the key.
 *
 * @example
 * execute: async ({ question }, ctx) => {
 *   if (ctx.state.get('context') !== undefined) throw new ToolError('Context already retrieved.');
 *   ctx.state.set('context', await search(question));
 *   ctx.state.update('queries', (n = 0) => n + 1); // atomic read-modify-write
 * }
 */
export interface SharedState<S extends StateRecord = StateRecord> {
  get<K extends keyof S & string>(key: K): S[K] | undefined;
  has(key: keyof S & string): boolean;
  set<K extends keyof S & string>(key: K, value: S[K] | undefined): void;
  /** Removes a key; returns whether it was present. */
  delete(key: keyof S & string): boolean;
  /**
   * Atomic read-modify-write: `fn` gets the current value and returns the new
   * one (`undefined` deletes), with no other write in between. `fn` must be
   * synchronous; parallel tool calls that update one key lose no update.
   */
  update<K extends keyof S & string>(key: K, fn: (current: S[K] | undefined) => S[K] | undefined): S[K] | undefined;
  /** A copy of all values (an object without a prototype, so every key is an ordinary key). */
  values(): Partial<S>;
  /** Every change from now on, as the actor applies it. */
  readonly changes$: Observable<StateChange>;
}

/**
 * The same shared state, typed by a zod schema (the schema given to the agent
 * or group chat is the one enforced; this only adds types).
 *
 * @example
 * const CitationState = z.object({ context: z.string().optional() });
 * const state = typedState(ctx.state, CitationState);
 * state.get('context'); // string | undefined
 */
export function typedState<Schema extends z.ZodType<StateRecord>>(state: SharedState, _schema: Schema): SharedState<z.output<Schema>> {
  return state as unknown as SharedState<z.output<Schema>>;
}

/**
 * A write to shared state that could not be applied: the value breaks the
 * state's schema (`STATE_INVALID`), or the state's run has not started or has
 * ended (`STATE_NOT_RUNNING`).
 */
export class SharedStateError extends AgentchartError {
  constructor(code: 'STATE_INVALID' | 'STATE_NOT_RUNNING', message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
