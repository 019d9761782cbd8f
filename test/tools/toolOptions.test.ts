import { ONE_CALL_AT_A_TIME_NOTE, defineTool, validateToolArguments } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('oneCallAtATime', () => {
  const ran: string[] = [];
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys the service.',
    parameters: z.object({ version: z.string() }),
    oneCallAtATime: true,
    execute: ({ version }) => {
      ran.push(`deploy ${version}`);
      return `Deployed ${version}.`;
    },
  });
  const status = defineTool({
    name: 'status',
    description: 'Shows the service status.',
    parameters: z.object({}),
    execute: () => {
      ran.push('status');
      return 'green';
    },
  });

  it('tells the model in the description', () => {
    expect(deploy.spec.description).toBe(`Deploys the service. ${ONE_CALL_AT_A_TIME_NOTE}`);
    expect(deploy.description).toBe('Deploys the service.');
    expect(status.spec.description).toBe('Shows the service status.');
  });

  it('refuses it beside another call, refuses it twice in one batch, and runs it alone', async () => {
    ran.length = 0;
    const model = scriptedModel([
      { toolCalls: [{ name: 'deploy', arguments: { version: '1.0' } }, { name: 'status' }] },
      {
        toolCalls: [
          { name: 'deploy', arguments: { version: '1.1' } },
          { name: 'deploy', arguments: { version: '1.2' } },
        ],
      },
      { toolCalls: [{ name: 'deploy', arguments: { version: '1.2' } }] },
      { text: 'Deployed.' },
    ]);
    const result = await createAgent({ name: 'ops', model, tools: [deploy, status] }).run('Deploy.').result;
    expect(result.toolCalls.map(({ call, content, isError }) => ({ name: call.name, content, isError }))).toEqual([
      {
        name: 'deploy',
        content:
          'Tool "deploy" must be called on its own, but this reply made 2 tool calls (deploy, status), so it was not run. ' +
          'Call "deploy" again in a reply with no other tool call.',
        isError: true,
      },
      { name: 'status', content: 'green', isError: false },
      {
        name: 'deploy',
        content:
          'Tool "deploy" must be called on its own, but this reply made 2 tool calls (deploy, deploy), so it was not run. ' +
          'Call "deploy" again in a reply with no other tool call.',
        isError: true,
      },
      {
        name: 'deploy',
        content:
          'Tool "deploy" must be called on its own, but this reply made 2 tool calls (deploy, deploy), so it was not run. ' +
          'Call "deploy" again in a reply with no other tool call.',
        isError: true,
      },
      { name: 'deploy', content: 'Deployed 1.2.', isError: false },
    ]);
    expect(ran).toEqual(['status', 'deploy 1.2']);
  });
});

describe('strict', () => {
  const search = defineTool({
    name: 'search',
    description: 'Searches flights.',
    strict: true,
    parameters: z.object({
      from: z.string(),
      to: z.string(),
      cabin: z.enum(['economy', 'business']).optional(),
      filters: z.object({ maxStops: z.number().int().optional(), airline: z.string().nullable() }),
      tags: z.array(z.object({ name: z.string(), weight: z.number().optional() })).optional(),
    }),
    execute: (args) => args,
  });

  it('sends additionalProperties false and every property required, optional ones nullable', () => {
    expect(search.spec.strict).toBe(true);
    expect(search.jsonSchema).toEqual({
      type: 'object',
      properties: {
        from: { type: 'string' },
        to: { type: 'string' },
        cabin: { type: ['string', 'null'], enum: ['economy', 'business', null] },
        filters: {
          type: 'object',
          properties: {
            maxStops: { type: ['integer', 'null'], minimum: expect.any(Number), maximum: expect.any(Number) },
            airline: { type: ['string', 'null'] },
          },
          required: ['maxStops', 'airline'],
          additionalProperties: false,
        },
        tags: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, weight: { type: ['number', 'null'] } },
            required: ['name', 'weight'],
            additionalProperties: false,
          },
        },
      },
      required: ['from', 'to', 'cabin', 'filters', 'tags'],
      additionalProperties: false,
    });
  });

  it('reads null as "absent" for optional properties, and keeps null where the schema allows it', async () => {
    const validation = await validateToolArguments(search, {
      id: 'c1',
      name: 'search',
      arguments: { from: 'LIS', to: 'OSL', cabin: null, filters: { maxStops: null, airline: null }, tags: [{ name: 'x', weight: null }] },
    });
    expect(validation).toEqual({ ok: true, args: { from: 'LIS', to: 'OSL', filters: { airline: null }, tags: [{ name: 'x' }] } });
  });

  it('leaves tools without strict as they were', () => {
    const loose = defineTool({ name: 'loose', description: 'd', parameters: z.object({ a: z.string().optional() }), execute: () => 1 });
    expect(loose.spec.strict).toBeUndefined();
    expect(loose.jsonSchema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });
});

describe('enums and literals', () => {
  it('reach the model as JSON Schema enums', () => {
    const run = defineTool({
      name: 'run_command',
      description: 'Starts or stops the service.',
      parameters: z.object({
        command: z.literal('start').or(z.literal('stop')),
        mode: z.enum(['fast', 'safe']),
        confirm: z.literal(true),
        level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
        target: z.literal('service'),
      }),
      execute: ({ command }) => command,
    });
    expect(run.jsonSchema.properties).toEqual({
      command: { type: 'string', enum: ['start', 'stop'] },
      mode: { type: 'string', enum: ['fast', 'safe'] },
      confirm: { type: 'boolean', enum: [true] },
      level: { type: 'number', enum: [1, 2, 3] },
      target: { type: 'string', enum: ['service'] },
    });
  });

  it('refuses a value outside the enum with the allowed values', async () => {
    const run = defineTool({
      name: 'run_command',
      description: 'Starts or stops the service.',
      parameters: z.object({ command: z.enum(['start', 'stop']) }),
      execute: ({ command }) => command,
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'run_command', arguments: { command: 'rm -rf /' } }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'ops', model, tools: [run] }).run('Go.').result;
    expect(result.toolCalls[0]?.content).toBe(
      'Invalid arguments for tool "run_command":\n- command: Invalid option: expected one of "start"|"stop"\nFix these and call "run_command" again.',
    );
  });
});
