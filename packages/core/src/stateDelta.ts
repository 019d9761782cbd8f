/**
 * What changed in a stored state between two checkpoints, as operations on
 * its JSON: `set` a value at a path (an object key at every level), `append`
 * items to the array at a path, `delete` the key at a path. A store keeps a
 * run's last whole checkpoint and the deltas written after it; applying them
 * in order gives the run's current state.
 */
export type StateDeltaOp =
  | readonly ['set', readonly string[], unknown]
  | readonly ['append', readonly string[], readonly unknown[]]
  | readonly ['delete', readonly string[]];

/**
 * One checkpoint written as a delta: `step` counts the deltas since the whole
 * checkpoint it builds on (1, 2, …), `ops` say what changed, and
 * `signature`, when the writer signs, chains this delta to the one before it
 * (see `CheckpointChain` in `@agentchart/actors`).
 */
export interface StateDelta {
  readonly step: number;
  readonly ops: readonly StateDeltaOp[];
  readonly signature?: string;
}

/**
 * The operations that turn `previous` into `next`, found by reference: a
 * subtree that is the same object in both is unchanged (the checkpoints
 * share what they did not replace), an array whose old items are still its
 * first ones is unchanged or grew by the rest, a plain object is compared key by key, and
 * anything else that differs is set whole. Applying the result to the JSON
 * of `previous` gives the JSON of `next` (`undefined` reads as absent, as in
 * JSON).
 *
 * @example
 * diffState({ messages: [a], step: 1 }, { messages: [a, b], step: 2 });
 * // [['append', ['messages'], [b]], ['set', ['step'], 2]]
 */
export function diffState(previous: unknown, next: unknown): StateDeltaOp[] {
  const ops: StateDeltaOp[] = [];
  diffInto(previous, next, [], ops);
  return ops;
}

function diffInto(previous: unknown, next: unknown, path: readonly string[], ops: StateDeltaOp[]): void {
  if (previous === next) return;
  if (Array.isArray(previous) && Array.isArray(next)) {
    const kept = previous.length;
    let same = 0;
    if (next.length >= kept) while (same < kept && previous[same] === next[same]) same++;
    if (same === kept && next.length >= kept) {
      if (next.length > kept) ops.push(['append', path, next.slice(kept)]);
      return;
    }
    ops.push(['set', path, next]);
    return;
  }
  if (isPlainObject(previous) && isPlainObject(next)) {
    // `for…in` with `hasOwn`: `Object.keys`, without the array.
    for (const key in next) {
      if (!Object.hasOwn(next, key)) continue;
      const value = next[key];
      if (value === undefined || value === previous[key]) continue; // unchanged: no path built for it
      diffInto(previous[key], value, [...path, key], ops);
    }
    for (const key in previous) {
      if (Object.hasOwn(previous, key) && previous[key] !== undefined && next[key] === undefined) ops.push(['delete', [...path, key]]);
    }
    return;
  }
  if (next === undefined) {
    if (path.length > 0) ops.push(['delete', path]);
    return;
  }
  ops.push(['set', path, next]);
}

/**
 * Applies a delta's operations to a state read from JSON and returns the new
 * state (the same object, changed in place, unless the root itself was set).
 * Throws a `TypeError` naming the path when an operation does not fit the
 * state (a delta applied to another state than its own).
 *
 * @example
 * const state = applyStateDelta(JSON.parse(base), { step: 1, ops: [['append', ['messages'], [reply]]] });
 */
export function applyStateDelta(state: unknown, delta: Pick<StateDelta, 'ops'>): unknown {
  let root = state;
  for (const op of delta.ops) {
    const [kind, path] = op;
    if (path.length === 0) {
      if (kind !== 'set') throw new TypeError(`A state delta's ${kind} has no path.`);
      root = jsonValue(op[2]);
      continue;
    }
    const parent = objectAt(root, path.slice(0, -1));
    const key = ownKey(path[path.length - 1]!, path);
    if (kind === 'set') Object.defineProperty(parent, key, { value: jsonValue(op[2]), enumerable: true, writable: true, configurable: true });
    else if (kind === 'delete') delete parent[key];
    else {
      const items = Object.hasOwn(parent, key) ? parent[key] : undefined;
      if (!Array.isArray(items) || !Array.isArray(op[2])) throw new TypeError(`A state delta appends to "${path.join('.')}", which is not an array.`);
      for (const item of op[2]) items.push(jsonValue(item));
    }
  }
  return root;
}

function objectAt(root: unknown, path: readonly string[]): Record<string, unknown> {
  let at = root;
  for (const key of path) at = isPlainObject(at) && Object.hasOwn(at, ownKey(key, path)) ? at[key] : undefined;
  if (!isPlainObject(at)) throw new TypeError(`A state delta changes "${path.join('.')}", which is not an object in the state.`);
  return at;
}

/**
 * A key a delta (a stored row: untrusted) may name: never `__proto__`, so that
 * applying it cannot reach or replace an object's prototype.
 */
function ownKey(key: string, path: readonly string[]): string {
  if (key === '__proto__') throw new TypeError(`A state delta names "${path.join('.')}": "__proto__" is not a key of a stored state.`);
  return key;
}

/** A value as JSON reads it back (`undefined` in an array is `null`). */
function jsonValue(value: unknown): unknown {
  return value === undefined ? null : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
