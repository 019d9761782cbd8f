import { applyStateDelta, diffState } from '@agentchart/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** A JSON-like value, `undefined` included where JSON drops or nulls it. */
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'messages'), tie('node'), { maxKeys: 4 }),
})).object;

/** The next state as a step makes it: what it does not replace stays the same object; arrays grow by appending. */
function nextOf(previous: Record<string, unknown>, changes: readonly { key: string; kind: 'replace' | 'append' | 'drop'; value: unknown }[]) {
  const next: Record<string, unknown> = { ...previous };
  for (const change of changes) {
    const current = next[change.key];
    if (change.kind === 'drop') delete next[change.key];
    else if (change.kind === 'append' && Array.isArray(current)) next[change.key] = [...current, change.value];
    else next[change.key] = change.value;
  }
  return next;
}

const changes = fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'messages'), kind: fc.constantFrom('replace', 'append', 'drop'), value }), {
  maxLength: 4,
});

describe('state deltas', () => {
  it('the delta of two states applied to the JSON of the first gives the JSON of the second, over a chain of steps', () => {
    fc.assert(
      fc.property(value, fc.array(changes, { minLength: 1, maxLength: 6 }), (start, steps) => {
        let previous = start as Record<string, unknown>;
        let stored = asJson(previous);
        for (const step of steps) {
          const next = nextOf(previous, step);
          const delta = { step: 1, ops: asJson(diffState(previous, next)) as ReturnType<typeof diffState> };
          stored = applyStateDelta(stored, delta);
          expect(stored).toEqual(asJson(next));
          previous = next;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds what changed by reference: a shared subtree is no operation, a grown transcript is an append', () => {
    const messages = [{ role: 'user', content: 'task' }];
    const tools = ['a', 'b'];
    const previous = { machine: { context: { messages, step: 1, tools } }, liveTools: ['a'] };
    const reply = { role: 'assistant', content: 'ok' };
    const next = { machine: { context: { messages: [...messages, reply], step: 2, tools } }, liveTools: ['a'] };
    expect(diffState(previous, next)).toEqual([
      ['append', ['machine', 'context', 'messages'], [reply]],
      ['set', ['machine', 'context', 'step'], 2],
    ]);
  });

  it('an operation that does not fit its state is a TypeError naming the path', () => {
    expect(() => applyStateDelta({ messages: 'text' }, { ops: [['append', ['messages'], [1]]] })).toThrow(/"messages", which is not an array/);
    expect(() => applyStateDelta({}, { ops: [['set', ['machine', 'value'], 1]] })).toThrow(/"machine", which is not an object/);
  });

  it('a delta row naming __proto__ or an inherited key is refused, and no prototype changes', () => {
    expect(() => applyStateDelta({ a: {} }, { ops: [['set', ['__proto__', 'approved'], true]] })).toThrow(
      /"__proto__" is not a key of a stored state/,
    );
    expect(() => applyStateDelta({ a: {} }, { ops: [['set', ['a', '__proto__'], { approved: true }]] })).toThrow(/"__proto__" is not a key/);
    expect(() => applyStateDelta({ a: {} }, { ops: [['set', ['constructor', 'prototype'], 1]] })).toThrow(/"constructor", which is not an object/);
    expect(() => applyStateDelta({ a: {} }, { ops: [['append', ['toString'], [1]]] })).toThrow(/"toString", which is not an array/);
    expect(({} as Record<string, unknown>).approved).toBeUndefined();
    // A key of the state itself still applies, as an own property.
    expect(applyStateDelta({ a: { b: 1 } }, { ops: [['set', ['a', 'c'], 2]] })).toEqual({ a: { b: 1, c: 2 } });
  });
});
