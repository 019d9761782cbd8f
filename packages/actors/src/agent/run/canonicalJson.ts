/**
 * JSON with object keys sorted at every level: the bytes a signature or a
 * call's argument hash covers do not depend on key order (a JSON column of a
 * database may reorder keys). Plain data (plain objects, arrays, strings,
 * numbers, booleans, null) is written in one pass; any other value (a class
 * instance, a `toJSON`, a boxed primitive) goes through `JSON.stringify`
 * with a replacer that sorts, which gives the same text for plain data.
 *
 * @example
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  return writePlain(value, parts) ? parts.join('') : sortedStringify(value);
}

/** Appends the JSON of plain data to `parts`; false (parts then unusable) at the first value that is not. */
function writePlain(value: unknown, parts: string[]): boolean {
  if (value === null) {
    parts.push('null');
    return true;
  }
  switch (typeof value) {
    case 'string':
      parts.push(JSON.stringify(value));
      return true;
    case 'number':
      parts.push(Number.isFinite(value) ? String(value) : 'null');
      return true;
    case 'boolean':
      parts.push(value ? 'true' : 'false');
      return true;
    case 'object':
      break;
    default:
      return false; // undefined, a function, a symbol or a bigint at this place: JSON.stringify decides
  }
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    parts.push('[');
    for (let index = 0; index < value.length; index++) {
      if (index > 0) parts.push(',');
      const item: unknown = value[index];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') parts.push('null');
      else if (!writePlain(item, parts)) return false;
    }
    parts.push(']');
    return true;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record.toJSON === 'function') return false;
  parts.push('{');
  let first = true;
  for (const key of sortedKeys(record)) {
    const inner = record[key];
    if (inner === undefined || typeof inner === 'function' || typeof inner === 'symbol') continue;
    parts.push(first ? '' : ',', JSON.stringify(key), ':');
    first = false;
    if (!writePlain(inner, parts)) return false;
  }
  parts.push('}');
  return true;
}

/**
 * The keys in the order the sorting replacer's objects give them: sorted,
 * but array-index keys ("0", "12") first in numeric order, as every object
 * keeps them (`Object.keys` already lists those first, in that order).
 */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  let indexKeys = 0;
  while (indexKeys < keys.length && isArrayIndex(keys[indexKeys]!)) indexKeys++;
  if (indexKeys === 0) return keys.sort();
  return [...keys.slice(0, indexKeys), ...keys.slice(indexKeys).sort()];
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;
}

function sortedStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(
      Object.keys(inner)
        .sort()
        .map((key) => [key, (inner as Record<string, unknown>)[key]]),
    );
  });
}
