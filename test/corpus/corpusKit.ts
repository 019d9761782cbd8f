import type { RunStore } from '@agentchart/core';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { wholeCheckpoints } from '../support/writtenCheckpoints.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InspectionEvent } from 'xstate';

/**
 * How a corpus scenario is run: `plain` (no observer), `inspected` (an
 * XState inspector that only counts what it sees) or `stored` (kept in a
 * SQLite store whose every call is recorded), or `storedInspected` (both).
 */
export type VariantName = 'plain' | 'inspected' | 'stored' | 'storedInspected';

export interface Variant {
  readonly name: VariantName;
  /** Options for `agent.run` / `chat.run` / `resume`: none, `{ inspect }`, or `{ store, runId, owner, leaseMs }`. */
  runOptions(runId?: string): Record<string, unknown>;
  /** The options of a resume: like `runOptions`, without a run id. */
  resumeOptions(): Record<string, unknown>;
  /** The store of a `stored` variant. */
  readonly store: RunStore | undefined;
  /** Another connection ("process") to the stored variant's database, its calls recorded under `process`. */
  another(process: string): Promise<RunStore>;
  /** A connection to the stored variant's database whose calls are not recorded: for a scenario's own polling and reading. */
  readonly observer: RunStore | undefined;
  /** Moves the stored variant's clock on (a lease runs out). */
  advance(ms: number): void;
  /**
   * Called by scenarios with every run they start: a tracing variant (see
   * `makeVariant`) follows the run's root actor; the others do nothing.
   */
  track<Run extends object>(run: Run): Run;
  /** What `track` saw, per run in the order tracked: each snapshot of the root actor, and its state at each event. */
  readonly trace: RunTrace[];
  /** The inspector of an inspected variant. */
  readonly inspect: ((event: InspectionEvent) => void) | undefined;
  /** Every call made to the store so far, normalised later with the rest. */
  readonly storeCalls: StoreCall[];
  /** Waits until the store has no call in flight (a stored run writes its end after its result). */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export interface RunTrace {
  /** Every snapshot the root actor emitted: its status, state value and context. */
  snapshots: unknown[];
  /**
   * `run.actor.getSnapshot()` read in an `events$` listener: the event's type, the state value of that moment
   * and the actors that exist then (see `actorsOf`).
   */
  atEvents: unknown[];
  /** Set when the run has no root actor to follow. */
  missing?: string;
  /** The actors of a watched run (its root seen by the inspector) that existed unseen by it. */
  unseen: string[];
}

interface TracedActor {
  subscribe(next: (snapshot: unknown) => void): unknown;
  getSnapshot(): { status?: unknown; value?: unknown; context?: unknown; children?: Record<string, TracedActor | undefined> };
  readonly system: { get(systemId: string): TracedActor | undefined };
}

/**
 * The actors of a run that exist now, by path: the root actor's children and
 * theirs (`model`, `agent:a/toolRunner`, …) and its system's shared-state
 * actor (made as a child, though not listed among the children until persisted).
 */
function actorsOf(root: TracedActor): Map<string, TracedActor> {
  const found = new Map<string, TracedActor>();
  const walk = (actor: TracedActor, path: string) => {
    found.set(path, actor);
    for (const [id, child] of Object.entries(actor.getSnapshot().children ?? {}))
      if (child !== undefined) walk(child, path === '' ? id : `${path}/${id}`);
  };
  walk(root, '');
  const sharedState = root.system.get('sharedState');
  if (sharedState !== undefined && ![...found.values()].includes(sharedState)) found.set('system:sharedState', sharedState);
  return found;
}

/**
 * A snapshot as the trace keeps it: the context without its runtime (code and options, the same in every
 * snapshot) and, for a chat's manager, without `run` (the run's bus, actors and hooks: the same object throughout).
 */
function traced(snapshot: { status?: unknown; value?: unknown; context?: unknown }) {
  const { runtime: _runtime, run: _run, ...context } = (snapshot.context ?? {}) as Record<string, unknown>;
  return { status: snapshot.status, value: snapshot.value, context };
}

export interface StoreCall {
  process: string;
  method: string;
  args: unknown[];
  outcome?: 'ok' | { error: string };
}

/** A scenario: runs once under a variant and returns what it observed (events, results, snapshots). */
export type Scenario = (variant: Variant) => Promise<unknown>;

/** The scenarios of one fixture file and the variants each runs under. */
export interface ScenarioGroup {
  readonly variants: readonly VariantName[];
  readonly scenarios: Readonly<Record<string, Scenario>>;
}

export const LEASE_MS = 60_000;
const START = 1_700_000_000_000;
let directory: string | undefined;
let databases = 0;

/** A store that records every call made to it, in the order made. */
function recordingStore(store: RunStore, process: string, calls: StoreCall[], inFlight: Set<Promise<unknown>>): RunStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'close') return value;
      return (...args: unknown[]) => {
        const call: StoreCall = { process, method: property, args: plainCopy(args) as unknown[] };
        calls.push(call);
        const result = value.apply(target, args);
        if (result instanceof Promise) {
          const tracked = result.then(
            (resolved) => {
              call.outcome = 'ok';
              return resolved;
            },
            (error: unknown) => {
              call.outcome = { error: (error as { code?: string }).code ?? String(error) };
              throw error;
            },
          );
          inFlight.add(tracked);
          void tracked.then(
            () => inFlight.delete(tracked),
            () => inFlight.delete(tracked),
          );
          return tracked;
        }
        call.outcome = 'ok';
        return result;
      };
    },
  });
}

/**
 * Makes the variant a scenario runs under; a stored one opens a new SQLite
 * database on a clock that stands still (with `wholeCheckpoints`, one that
 * takes no deltas: every checkpoint is written whole).
 */
export async function makeVariant(name: VariantName, options: { trace?: boolean; wholeCheckpoints?: boolean } = {}): Promise<Variant> {
  const trace: RunTrace[] = [];
  const storeCalls: StoreCall[] = [];
  const inFlight = new Set<Promise<unknown>>();
  const stored = name === 'stored' || name === 'storedInspected';
  const inspected = name === 'inspected' || name === 'storedInspected';
  const connections: RunStore[] = [];
  let time = START;
  databases += 1;
  directory ??= mkdtempSync(join(tmpdir(), 'agentchart-corpus-'));
  const path = join(directory, `corpus-${databases}.db`);
  const open = async (process: string) => {
    const raw = await createSqliteRunStore({ path, now: () => time });
    connections.push(raw);
    return recordingStore(options.wholeCheckpoints === true ? wholeCheckpoints(raw) : raw, process, storeCalls, inFlight);
  };
  const store = stored ? await open('p1') : undefined;
  const observer = stored ? await createSqliteRunStore({ path, now: () => time }) : undefined;
  if (observer !== undefined) connections.push(observer);
  // The inspector keeps only the actors it was told of.
  const announced = new WeakSet<object>();
  const inspect = inspected
    ? (event: InspectionEvent) => {
        if (event.type === '@xstate.actor') announced.add(event.actorRef);
      }
    : undefined;
  let runs = 0;
  return {
    name,
    store,
    storeCalls,
    inspect,
    another: open,
    observer,
    trace,
    track(run) {
      if (!options.trace) return run;
      const entry: RunTrace = { snapshots: [], atEvents: [], unseen: [] };
      trace.push(entry);
      const actor = (run as { actor?: TracedActor }).actor;
      if (actor === undefined) {
        entry.missing = 'the run has no `actor`';
        return run;
      }
      actor.subscribe((snapshot) => entry.snapshots.push(traced(snapshot as { value?: unknown })));
      (run as unknown as { events$: { subscribe(next: (event: { type: string }) => void): unknown } }).events$.subscribe((event) => {
        const actors = actorsOf(actor);
        // A run the inspector watches (a scenario may start one without the variant's options): it sees all its actors.
        const watched = announced.has(actor);
        for (const [path, existing] of actors) if (watched && !announced.has(existing) && !entry.unseen.includes(path)) entry.unseen.push(path);
        entry.atEvents.push({ event: event.type, ...traced(actor.getSnapshot()), actors: [...actors.keys()].sort() });
      });
      return run;
    },
    advance: (ms) => {
      time += ms;
    },
    runOptions(runId?: string) {
      runs += 1;
      return {
        ...(inspect === undefined ? {} : { inspect }),
        ...(stored ? { store, runId: runId ?? `run_corpus_${runs}`, owner: 'corpus', leaseMs: LEASE_MS } : {}),
      };
    },
    resumeOptions() {
      return { ...(inspect === undefined ? {} : { inspect }), ...(stored ? { store, owner: 'corpus', leaseMs: LEASE_MS } : {}) };
    },
    async settle() {
      // Quiet for a few timer turns in a row: nothing in flight and no new call.
      let quiet = 0;
      let seen = storeCalls.length;
      while (quiet < 3) {
        if (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (inFlight.size === 0 && storeCalls.length === seen) quiet += 1;
        else quiet = 0;
        seen = storeCalls.length;
      }
    },
    async close() {
      await Promise.all(connections.map((connection) => connection.close()));
    },
  };
}

/** A JSON copy: functions, symbols and `undefined` dropped, class instances other than errors by their class name. */
export function plainCopy(value: unknown): unknown {
  const seen = new WeakSet<object>();
  const walk = (node: unknown): unknown => {
    if (node === undefined || typeof node === 'function' || typeof node === 'symbol') return undefined;
    if (typeof node === 'bigint') return `${node}n`;
    if (typeof node === 'number' && !Number.isFinite(node)) return String(node);
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node)) return '[cycle]';
    seen.add(node);
    try {
      if (Array.isArray(node)) return node.map((item) => walk(item) ?? null);
      if (node instanceof Error) {
        const { code, details } = node as { code?: unknown; details?: unknown };
        return {
          error: node.name,
          message: node.message,
          ...(code === undefined ? {} : { code }),
          ...(details === undefined ? {} : { details: walk(details) }),
        };
      }
      if (node instanceof Map) return { map: [...node].map(([key, entry]) => [walk(key), walk(entry)]) };
      if (node instanceof Set) return { set: [...node].map(walk) };
      const prototype = Object.getPrototypeOf(node);
      if (prototype !== Object.prototype && prototype !== null && typeof (node as { toJSON?: unknown }).toJSON !== 'function')
        return `[${prototype?.constructor?.name ?? 'object'}]`;
      const source = typeof (node as { toJSON?: () => unknown }).toJSON === 'function' ? (node as { toJSON: () => unknown }).toJSON() : node;
      if (source !== node) return walk(source);
      const out: Record<string, unknown> = {};
      for (const [key, entry] of Object.entries(node)) {
        const copied = walk(entry);
        if (copied !== undefined) out[key] = copied;
      }
      return out;
    } finally {
      seen.delete(node);
    }
  };
  return walk(value);
}

const RANDOM_ID = /\b(run|chat)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/**
 * What a scenario observed, as stable JSON: run and chat ids made at random
 * are numbered in order of appearance (`run-1`, `chat-1`), actor-system ids
 * (`x:<n>`, which count the actors made before), a random selector's
 * unused state and error stacks (where the code runs from) are blanked.
 * Everything else is kept as it was.
 */
export function normalize(value: unknown): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(plainCopy(value)) ?? 'null';
  const renamed = text.replace(RANDOM_ID, (id, kind: string) => {
    let name = ids.get(id);
    if (name === undefined) {
      name = `${kind}-${[...ids.keys()].filter((key) => key.startsWith(kind)).length + 1}`;
      ids.set(id, name);
    }
    return name;
  });
  const walk = (node: unknown, key: string | undefined): unknown => {
    if (key === 'randomState') return 0;
    if (key === 'stack' && typeof node === 'string') return '[stack]';
    if (typeof node === 'string' && /^x:\d+$/.test(node)) return 'x:?';
    if (Array.isArray(node)) return node.map((item) => walk(item, undefined));
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([entryKey, entry]) => [entryKey, walk(entry, entryKey)]));
  };
  return walk(JSON.parse(renamed), undefined);
}

/** A promise settled after every pending microtask and one timer turn. */
export const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
