import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../packages/actors/src/agent/run/canonicalJson.js';

/** The reference: JSON.stringify with a replacer that sorts every object's keys. */
const reference = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner === null || typeof inner !== 'object' || Array.isArray(inner)
      ? inner
      : Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, (inner as Record<string, unknown>)[key]]),
        ),
  );

class Point {
  constructor(
    readonly y: number,
    readonly x: number,
  ) {}
}

describe('canonicalJson', () => {
  const cases: [string, unknown][] = [
    ['nested objects and arrays', { b: 1, a: [2, { d: 3, c: 4 }], e: { g: null, f: 'x' } }],
    ['array-index keys among others', { b: 1, 10: 'ten', 2: 'two', a: 0, '01': 'not an index', 4294967295: 'not an index' }],
    ['skipped and nulled values', { a: undefined, b: () => 1, c: Symbol('s'), d: [undefined, () => 1, Symbol('s')] }],
    ['numbers', [0, -0, 1.5, 1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, -3]],
    ['strings that need escaping', ['"quoted"', 'line\nbreak', '\u2028', '\ud800', 'ünï']],
    ['a sparse array', Object.assign(new Array(3), { 0: 1, 2: 3 })],
    ['an object without a prototype', Object.assign(Object.create(null), { z: 1, y: 2 })],
    [
      'a date, a class instance, a toJSON, a boxed primitive',
      { d: new Date(0), p: new Point(1, 2), t: { toJSON: () => ({ b: 1, a: 2 }) }, n: Object(5) },
    ],
    ['primitives at the top', 'text'],
    ['null', null],
    ['a call’s arguments', { query: 'q0', n: 0 }],
  ];
  it.each(cases)('writes %s as the sorting replacer does', (_name, value) => {
    expect(canonicalJson(value)).toBe(reference(value));
  });

  it('is undefined for undefined, and throws for a bigint, as JSON.stringify', () => {
    expect(canonicalJson(undefined)).toBe(reference(undefined));
    expect(() => canonicalJson({ a: 1n })).toThrow(TypeError);
  });
});
