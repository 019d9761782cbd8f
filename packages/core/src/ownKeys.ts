/**
 * Key handling for objects whose keys come from outside (a model's arguments,
 * a caller's state keys, a parsed document or snapshot). A plain assignment
 * `target[key] = value` with `key === '__proto__'` replaces the target's
 * prototype, and a plain read `record[key]` finds `constructor`, `toString`
 * and friends on `Object.prototype`. These helpers only ever touch own
 * properties, so no outside key reaches a prototype.
 */

/**
 * Sets `key` as an own, enumerable, writable property — also `__proto__`,
 * which then is an ordinary key and not the prototype.
 *
 * @example
 * const out = {};
 * setOwn(out, '__proto__', { isAdmin: true });
 * Object.getPrototypeOf(out) === Object.prototype; // true
 * Object.keys(out); // ['__proto__']
 */
export function setOwn<T extends object>(target: T, key: string, value: unknown): T {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  return target;
}

/**
 * The value of an own property, `undefined` when `record` has no own `key`
 * (whatever the name: `constructor`, `toString`, `__proto__`, ...).
 *
 * @example
 * getOwn({}, 'constructor'); // undefined
 */
export function getOwn(record: object, key: string): unknown {
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/**
 * A copy of `record`'s own enumerable string keys into an object without a
 * prototype: no read of it finds an inherited member, and no write of
 * `__proto__` changes a prototype.
 *
 * @example
 * const copy = ownRecord(JSON.parse('{"__proto__": {"x": 1}}'));
 * copy.x; // undefined
 */
export function ownRecord<T = unknown>(record: object | undefined = {}): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const key of Object.keys(record)) setOwn(out, key, (record as Record<string, T>)[key]);
  return out;
}
