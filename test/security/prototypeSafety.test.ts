import { createAgent } from '@agentchart/actors';
import { type JsonSchema, defineTool, parseToolRules, rules } from '@agentchart/core';
import { restoreOptionalNulls, toParametersJsonSchema } from '@agentchart/core/internal';
import { argumentsToValidate, getOwn, ownRecord, setOwn } from '@agentchart/core/internal';
import { sanitizeValue } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializeParameters } from '../../packages/tools/src/openapi/serializeParameters.js';
import { requestJsonSchema } from '../../packages/tools/src/openapi/requestJsonSchema.js';
import { eventsOf, recordEvents, waitForState } from '../toolControl/helpers.js';

/** A model's arguments as a provider parses them: JSON, so `__proto__` is an own key. */
const hostile = (json: string): Record<string, unknown> => JSON.parse(json) as Record<string, unknown>;

/** Nothing may have leaked onto Object.prototype during a test. */
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(({} as Record<string, unknown>).amount).toBeUndefined();
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
});
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

describe('every place that copies keys from outside keeps them own keys', () => {
  it('setOwn, getOwn and ownRecord never touch a prototype', () => {
    const out = setOwn({}, '__proto__', { isAdmin: true }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.isAdmin).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(getOwn({}, 'constructor')).toBeUndefined();
    expect(getOwn({}, 'toString')).toBeUndefined();
    const copy = ownRecord(hostile('{"__proto__": {"isAdmin": true}, "a": 1}'));
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(copy.isAdmin).toBeUndefined();
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
  });

  it('restoreOptionalNulls keeps a model\'s "__proto__" an own key and reads only own schema properties', () => {
    const loose: JsonSchema = { type: 'object', properties: { to: { type: 'string' }, memo: { type: 'string' } }, required: ['to'] };
    const out = restoreOptionalNulls(hostile('{"to":"Bob","memo":null,"__proto__":{"amount":1000000}}'), loose) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.amount).toBeUndefined();
    expect(Object.keys(out)).toEqual(['to', '__proto__']);
    // "constructor" is not a property of the schema, whatever Object.prototype says.
    const withConstructor = restoreOptionalNulls(hostile('{"to":"Bob","constructor":null}'), loose) as Record<string, unknown>;
    expect(Object.hasOwn(withConstructor, 'constructor')).toBe(true);
    expect(withConstructor.constructor).toBeNull();
  });

  it('argumentsToValidate of a strict tool: the hidden argument never becomes visible to the schema', () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      strict: true,
      parameters: z.object({ to: z.string(), memo: z.string().optional(), amount: z.number().optional() }),
      execute: () => 'paid',
    });
    const args = argumentsToValidate(pay, { id: 'c1', name: 'pay', arguments: hostile('{"to":"Bob","memo":null,"__proto__":{"amount":1000000}}') });
    expect(pay.parameters.parse(args)).toEqual({ to: 'Bob' });
  });

  it('the repro: a strict tool cannot hide an argument from its approver (approval shows what executes)', async () => {
    const executed: unknown[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays someone.',
      strict: true,
      parameters: z.object({ to: z.string(), memo: z.string().optional(), amount: z.number().optional() }),
      approval: 'always',
      execute: (args) => {
        executed.push({ ...args, amount: args.amount });
        return 'paid';
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'pay', arguments: hostile('{"to":"Bob","memo":null,"__proto__":{"amount":1000000}}') }] },
      { text: 'done' },
    ]);
    const run = createAgent({ name: 'payer', model, tools: [pay] }).run('Pay Bob.');
    const events = recordEvents(run);
    await waitForState(run, 'awaitingApproval');
    const [request] = eventsOf(events, 'approval.requested');
    expect((request!.arguments as Record<string, unknown>).amount).toBeUndefined();
    run.approve('c1');
    await run.result;
    expect(executed).toEqual([{ to: 'Bob', amount: undefined }]);
  });

  it('the repro: shared state keys named __proto__, constructor, toString are ordinary keys', async () => {
    const seen: Record<string, unknown> = {};
    const probe = defineTool({
      name: 'probe',
      description: 'Probes the state.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        seen.constructorBefore = ctx.state.get('constructor');
        seen.toStringBefore = ctx.state.get('toString');
        seen.protoBefore = ctx.state.get('__proto__');
        ctx.state.set('__proto__', { isAdmin: true });
        seen.isAdmin = ctx.state.get('isAdmin');
        seen.hasIsAdmin = ctx.state.has('isAdmin');
        seen.proto = ctx.state.get('__proto__');
        seen.hasProto = ctx.state.has('__proto__');
        seen.values = ctx.state.values();
        seen.updated = ctx.state.update('constructor', (current) => (current === undefined ? 'fresh' : 'inherited'));
        return 'ok';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'done' }]);
    await createAgent({ name: 'prober', model, tools: [probe] }).run('Probe.').result;
    expect(seen.constructorBefore).toBeUndefined();
    expect(seen.toStringBefore).toBeUndefined();
    expect(seen.protoBefore).toBeUndefined();
    expect(seen.isAdmin).toBeUndefined();
    expect(seen.hasIsAdmin).toBe(false);
    expect(seen.proto).toEqual({ isAdmin: true });
    expect(seen.hasProto).toBe(true);
    expect(Object.keys(seen.values as object)).toEqual(['__proto__']);
    expect((seen.values as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(seen.updated).toBe('fresh');
  });

  it('shared state given as initial values from JSON keeps "__proto__" as a key', async () => {
    let read: unknown;
    const probe = defineTool({
      name: 'probe',
      description: 'Reads.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        read = [ctx.state.get('isAdmin'), ctx.state.has('__proto__'), ctx.state.get('__proto__')];
        return 'ok';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'done' }]);
    await createAgent({ name: 'prober', model, tools: [probe] }).run('Probe.', { state: hostile('{"__proto__":{"isAdmin":true}}') }).result;
    expect(read).toEqual([undefined, true, { isAdmin: true }]);
  });

  it('OpenAPI parameter building reads only own arguments and schemas keep hostile property names as keys', () => {
    const parameters = [
      {
        name: 'constructor',
        in: 'query',
        argument: 'constructor',
        required: false,
        style: 'form',
        explode: true,
        json: false,
        schema: { type: 'string' },
      },
      { name: 'q', in: 'query', argument: 'q', required: false, style: 'form', explode: true, json: false, schema: { type: 'string' } },
    ] as unknown as Parameters<typeof serializeParameters>[1];
    expect(serializeParameters('/s', parameters, { q: 'x' }).query).toEqual([['q', 'x']]);
    const schema = requestJsonSchema(
      {} as never,
      hostile('{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"number"}}}'),
    ) as Record<string, Record<string, unknown>>;
    expect(Object.keys(schema.properties as object)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
  });

  it('toParametersJsonSchema and the strict rewrite keep hostile property names as keys', () => {
    const schema = toParametersJsonSchema('t', z.object({ ['__proto__']: z.string().optional(), a: z.number() }), { strict: true });
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties).sort()).toEqual(['__proto__', 'a']);
  });

  it('the trace sanitiser copies "__proto__" as a key, never as a prototype', () => {
    const out = sanitizeValue(hostile('{"a":1,"__proto__":{"polluted":true}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(getOwn(out, '__proto__')).toEqual({ polluted: true });
  });

  it('tool rules: Letta child_arg_nodes and prefilled arguments keep hostile names as keys', async () => {
    const [child] = parseToolRules([
      hostile('{"type":"constrain_child_tools","tool_name":"a","children":["b"],"child_arg_nodes":[{"name":"__proto__","args":{"polluted":true}}]}'),
    ]) as unknown as [{ childArgs?: Record<string, unknown> }];
    expect(Object.keys(child.childArgs ?? {})).toEqual(['__proto__']);
    expect((child.childArgs as Record<string, unknown>).polluted).toBeUndefined();
    let received: unknown;
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({ city: z.string(), unit: z.string().optional() }),
      execute: (args) => {
        received = args;
        return 'ok';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: hostile('{"__proto__":{"unit":"F"}}') }] }, { text: 'done' }]);
    await createAgent({
      name: 'p',
      model,
      tools: [lookup],
      toolRules: [rules.init('lookup', { args: hostile('{"city":"Oslo","__proto__":{"unit":"K"}}') })],
    }).run('Go.').result;
    expect(received).toEqual({ city: 'Oslo' });
  });

  it('a persisted run whose state holds "__proto__" resumes with it as a key', async () => {
    const executed: unknown[] = [];
    const gate = defineTool({
      name: 'gate',
      description: 'Waits.',
      parameters: z.object({}),
      approval: 'always',
      execute: (_a, ctx) => {
        executed.push([ctx.state.get('isAdmin'), ctx.state.get('__proto__')]);
        return 'ok';
      },
    });
    const writer = defineTool({
      name: 'writer',
      description: 'Writes.',
      parameters: z.object({}),
      execute: (_a, ctx) => {
        ctx.state.set('__proto__', { isAdmin: true });
        return 'ok';
      },
    });
    const script = [
      { toolCalls: [{ id: 'w', name: 'writer', arguments: {} }] },
      { toolCalls: [{ id: 'g', name: 'gate', arguments: {} }] },
      { text: 'done' },
    ];
    const agent = (model = scriptedModel(script)) => createAgent({ name: 'p', model, tools: [writer, gate] });
    const run = agent().run('Go.');
    await waitForState(run, 'awaitingApproval');
    const text = JSON.stringify(run.persist());
    run.abort();
    const resumed = agent(scriptedModel(script.slice(2))).resume(JSON.parse(text));
    resumed.approve('g');
    await resumed.result;
    expect(executed).toEqual([[undefined, { isAdmin: true }]]);
  });
});
