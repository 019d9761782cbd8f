import { createActor } from 'xstate';
import fc from 'fast-check';
import {
  type AnyTool,
  REDACTED,
  ToolRulesError,
  compileToolRules,
  defineTool,
  explainBlockedCall,
  initialToolRuleState,
  redactText,
  redactValue,
} from '@agentchart/core';
import { argumentsToValidate, getOwn } from '@agentchart/core/internal';
import { sanitizeValue } from '@agentchart/inspect';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gateToolCalls } from '../../packages/actors/src/agent/toolRules/toolRulesGate.js';
import { sharedStateHandle } from '../../packages/actors/src/sharedState/sharedStateHandle.js';
import { sharedStateMachine } from '../../packages/actors/src/sharedState/sharedStateMachine.js';
import { LEAKED_VALUES, SECRET_KEYS } from '../security/secretCorpus.js';

/** Cases per property; with the agent suite they make at least 10,000 per run. ADVERSARIAL_SEED replays a failure. */
const RUNS = Number(process.env.ADVERSARIAL_INPUT_RUNS ?? 4000);
const SEED = process.env.ADVERSARIAL_SEED === undefined ? undefined : Number(process.env.ADVERSARIAL_SEED);
const settings = { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) };
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

function prototypeUntouched(): boolean {
  const probe = {} as Record<string, unknown>;
  return Object.getOwnPropertyNames(Object.prototype).sort().join(',') === PROTOTYPE_NAMES && probe.polluted === undefined && probe.n === undefined;
}

const hostileKey = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'n', 's', 'polluted') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);

/** JSON objects as a provider parses them: `__proto__` and friends are own keys. */
const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown; object: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom<unknown>(null, true, 1000000, 'x'),
    fc.string({ maxLength: 5 }),
    tie('object'),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
  object: fc
    .array(fc.tuple(hostileKey, tie('value')), { maxLength: 5 })
    .map(
      (entries) => JSON.parse(`{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`) as unknown,
    ),
})).object;

const strictTool = defineTool({
  name: 'pay',
  description: 'Pays.',
  strict: true,
  parameters: z.object({ n: z.number().optional(), s: z.string().optional(), nested: z.object({ n: z.number().optional() }).optional() }),
  execute: () => 'paid',
});

describe('adversarial suite: hostile inputs against the pieces that copy keys, gate calls and redact', () => {
  it(`hostile JSON keys never reach a prototype (${RUNS} cases: strict-argument post-processing, shared state, sanitiser, redaction)`, () => {
    const started = performance.now();
    fc.assert(
      fc.property(hostileJson, fc.array(hostileKey, { minLength: 1, maxLength: 4 }), (args, stateKeys) => {
        const prepared = argumentsToValidate(strictTool, { id: 'c', name: 'pay', arguments: args });
        const parsed = strictTool.parameters.safeParse(prepared);
        if (parsed.success) {
          // What validation accepted is exactly what the model wrote as own properties.
          for (const key of ['n', 's'] as const) {
            const own = getOwn(args as object, key);
            expect(parsed.data[key]).toEqual(own === null ? undefined : own);
          }
        }
        const actor = createActor(sharedStateMachine, { input: { initial: args as Record<string, unknown> } }).start();
        const state = sharedStateHandle(actor.ref);
        for (const key of stateKeys) {
          const before = state.has(key);
          expect(state.get(key) === undefined || before).toBe(true); // nothing inherited
          state.set(key, { polluted: true, n: 1 });
          expect(state.has(key)).toBe(true);
          expect(Object.keys(state.values())).toContain(key);
        }
        actor.stop();
        const sanitized = sanitizeValue(args);
        const redacted = redactValue(args);
        for (const copy of [sanitized, redacted]) expect(Object.keys(copy as object).sort()).toEqual(Object.keys(args as object).sort());
        // The strict post-processing only drops keys (optional ones given as null), it never adds or hides one.
        for (const key of Object.keys(prepared as object)) expect(Object.keys(args as object)).toContain(key);
        expect(Object.getPrototypeOf(prepared)).toBe(Object.prototype);
        expect(prototypeUntouched()).toBe(true);
      }),
      settings,
    );
    console.log(`adversarial keys: ${RUNS} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);

  it(`secrets in any text or under any secret key come back redacted (${RUNS} cases)`, () => {
    const started = performance.now();
    const separator = fc.constantFrom(' ', '"', ':', '=', '\n', '(', "'", ', ');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 12 }), separator, fc.constantFrom(...LEAKED_VALUES)), { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...SECRET_KEYS),
        fc.string({ minLength: 1, maxLength: 20 }),
        (parts, secretKey, secretValue) => {
          const text = parts.map(([prose, sep, secret]) => `${prose}${sep}${secret}`).join(' ');
          const cleaned = redactText(text);
          for (const [, , secret] of parts) expect(cleaned).not.toContain(secret);
          expect(cleaned).toContain(REDACTED);
          const record = JSON.parse(`{${JSON.stringify(secretKey)}:${JSON.stringify(secretValue)},"note":${JSON.stringify(text)}}`) as object;
          for (const out of [JSON.stringify(redactValue(record)), JSON.stringify(sanitizeValue(record, { maxStringLength: 100_000 }))]) {
            expect(JSON.parse(out)[secretKey]).toBe(REDACTED);
            for (const [, , secret] of parts) expect(out).not.toContain(secret);
          }
        },
      ),
      settings,
    );
    console.log(`adversarial secrets: ${RUNS} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);

  it(`the rule gate never lets a refused call through, named or not (${RUNS} cases)`, () => {
    const started = performance.now();
    const names = ['alpha', 'beta', 'gamma'] as const;
    const tool = fc.constantFrom(...names);
    const rule = fc.oneof(
      tool.map((name) => ({ type: 'init', tool: name })),
      tool.map((name) => ({ type: 'terminal', tool: name })),
      tool.map((name) => ({ type: 'requiresApproval', tool: name })),
      fc.tuple(tool, fc.integer({ min: 1, max: 2 })).map(([name, limit]) => ({ type: 'maxCount', tool: name, limit })),
      fc.tuple(tool, fc.uniqueArray(tool, { minLength: 1, maxLength: 3 })).map(([name, children]) => ({ type: 'child', tool: name, children })),
    );
    const tools = new Map<string, AnyTool>(
      [...names, 'omega'].map((name) => [name, defineTool({ name, description: name, parameters: z.object({}), execute: () => name })]),
    );
    fc.assert(
      fc.property(
        fc.array(rule, { minLength: 1, maxLength: 4 }),
        fc.constantFrom<'where-free' | 'refuse'>('where-free', 'refuse'),
        fc.array(fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'omega', 'unknown', '__proto__'), { minLength: 1, maxLength: 5 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (ruleSet, unnamedTools, batches) => {
          let compiled: ReturnType<typeof compileToolRules>;
          try {
            compiled = compileToolRules(ruleSet, [...names], { unnamedTools });
          } catch (error) {
            if (error instanceof ToolRulesError) return;
            throw error;
          }
          let state = initialToolRuleState();
          for (const batch of batches) {
            const calls = batch.map((name, index) => ({ id: `c${index}`, name, arguments: {} }));
            const gated = gateToolCalls(compiled, tools, state, calls);
            let walking = state;
            let ended = false;
            gated.calls.forEach((call, index) => {
              const refused = gated.refusals[index] !== undefined;
              const named = compiled.program.toolSet.has(call.name);
              if (ended || walking.awaitingApproval !== null) expect(refused || !tools.has(call.name)).toBe(true);
              if (named && !refused) expect(explainBlockedCall(compiled.program, walking, call.name)).toBeNull();
              if (named && refused) expect(explainBlockedCall(compiled.program, walking, call.name)).not.toBeNull();
              if (call.name === 'omega' && unnamedTools === 'refuse') expect(refused).toBe(true);
              if (!tools.has(call.name)) expect(refused).toBe(false); // answered "unknown tool" by the runner, never run
              if (gated.admitted[index]) {
                walking = gateToolCalls(compiled, tools, walking, [call]).state;
                if (compiled.program.terminal.has(call.name)) ended = true;
              }
            });
            expect(gated.state).toEqual(walking);
            // The next batch starts where an approval would leave it: approved.
            state = walking.awaitingApproval !== null ? { ...walking, awaitingApproval: null } : walking;
            if (state.phase !== 'running') break;
          }
        },
      ),
      settings,
    );
    console.log(`adversarial gate: ${RUNS} cases in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000);
});
