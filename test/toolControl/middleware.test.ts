import { type FunctionMiddleware, defineTool, toolResult } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsOf, recordEvents } from './helpers.js';

function recordTools() {
  const executed: string[] = [];
  const getRecord = defineTool({
    name: 'get_record',
    description: 'Fetches a record.',
    parameters: z.object({ record_id: z.string() }),
    execute: ({ record_id }) => {
      executed.push(`get_record ${record_id}`);
      return `Record ${record_id}: status open`;
    },
  });
  const updateRecord = defineTool({
    name: 'update_record',
    description: 'Updates a record.',
    parameters: z.object({ record_id: z.string(), status: z.string() }),
    execute: ({ record_id, status }) => {
      executed.push(`update_record ${record_id}`);
      return `Updated ${record_id} to ${status}`;
    },
  });
  return { executed, getRecord, updateRecord };
}

describe('function middleware', () => {
  it('sees the tool, the validated arguments, the call id in metadata, and the result after next()', async () => {
    const seen: unknown[] = [];
    const count = defineTool({
      name: 'count',
      description: 'Counts.',
      parameters: z.object({ n: z.coerce.number() }),
      execute: ({ n }) => n + 1,
    });
    const spy: FunctionMiddleware = async (ctx, next) => {
      seen.push({ tool: ctx.tool.name, arguments: ctx.arguments, metadata: ctx.metadata, before: ctx.result });
      await next();
      seen.push({ after: ctx.result });
    };
    const model = scriptedModel([{ toolCalls: [{ id: 'c1', name: 'count', arguments: { n: '41' } }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'mw', model, tools: [count], middleware: [spy] }).run('go');
    await run.result;
    expect(seen).toEqual([
      {
        tool: 'count',
        arguments: { n: 41 },
        metadata: { callId: 'c1', toolName: 'count', agentName: 'mw', runId: run.runId, step: 1 },
        before: undefined,
      },
      { after: 42 },
    ]);
  });

  it('setting ctx.result without next() short-circuits: the tool never runs and the model sees that result', async () => {
    const { executed, getRecord, updateRecord } = recordTools();
    let lastFetched: string | undefined;
    const trackFetch: FunctionMiddleware = async (ctx, next) => {
      await next();
      if (ctx.tool.name === 'get_record') lastFetched = String(ctx.arguments.record_id);
    };
    const enforceReadBeforeWrite: FunctionMiddleware = async (ctx, next) => {
      if (ctx.tool.name === 'update_record' && ctx.arguments.record_id !== lastFetched) {
        ctx.result = `Error: you must fetch record '${String(ctx.arguments.record_id)}' before updating it. Last fetched record was '${lastFetched}'.`;
        return;
      }
      await next();
    };
    const model = scriptedModel([
      { toolCalls: [{ name: 'get_record', arguments: { record_id: 'REC-1' } }] },
      { toolCalls: [{ name: 'update_record', arguments: { record_id: 'REC-2', status: 'closed' } }] },
      { text: 'I could not update REC-2.' },
    ]);
    const agent = createAgent({
      name: 'records',
      model,
      tools: [getRecord, updateRecord],
      middleware: [trackFetch, enforceReadBeforeWrite],
    });
    const result = await agent.run('Close REC-2').result;
    expect(executed).toEqual(['get_record REC-1']);
    expect(model.requests[2]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'call_1_0',
      toolName: 'update_record',
      content: "Error: you must fetch record 'REC-2' before updating it. Last fetched record was 'REC-1'.",
    });
    expect(result.stopReason).toBe('completed');
  });

  it('after next() a middleware can read and replace the result', async () => {
    const secret = defineTool({
      name: 'secret',
      description: 'Returns a secret.',
      parameters: z.object({}),
      execute: () => toolResult({ token: 'abc' }, { text: 'token abc' }),
    });
    const redact: FunctionMiddleware = async (ctx, next) => {
      await next();
      ctx.result = `redacted (was ${JSON.stringify(ctx.result)})`;
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'secret' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'mw', model, tools: [secret], middleware: [redact] }).run('go').result;
    expect(result.toolCalls[0]?.content).toBe('redacted (was {"value":{"token":"abc"},"text":"token abc"})');
  });

  it('agent-level middleware runs outermost, then run-level, each in registration order', async () => {
    const order: string[] = [];
    const layer =
      (name: string): FunctionMiddleware =>
      async (_ctx, next) => {
        order.push(`${name} in`);
        await next();
        order.push(`${name} out`);
      };
    const noop = defineTool({
      name: 'noop',
      description: 'Does nothing.',
      parameters: z.object({}),
      execute: () => {
        order.push('tool');
        return '';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'noop' }] }, { text: 'ok' }]);
    const agent = createAgent({ name: 'mw', model, tools: [noop], middleware: [layer('agent1'), layer('agent2')] });
    await agent.run('go', { middleware: [layer('run1'), layer('run2')] }).result;
    expect(order).toEqual(['agent1 in', 'agent2 in', 'run1 in', 'run2 in', 'tool', 'run2 out', 'run1 out', 'agent2 out', 'agent1 out']);
  });

  it('run-level middleware applies to that run only', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'get_record', arguments: { record_id: 'A' } }] },
      { text: '1' },
      { toolCalls: [{ name: 'get_record', arguments: { record_id: 'B' } }] },
      { text: '2' },
    ]);
    const { getRecord } = recordTools();
    const agent = createAgent({ name: 'mw', model, tools: [getRecord] });
    const first = await agent.run('go', {
      middleware: [
        (ctx) => {
          ctx.result = 'blocked';
        },
      ],
    }).result;
    const second = await agent.run('go').result;
    expect(first.toolCalls[0]?.content).toBe('blocked');
    expect(second.toolCalls[0]?.content).toBe('Record B: status open');
  });

  it('a middleware can change the arguments the tool receives', async () => {
    const { getRecord } = recordTools();
    const upper: FunctionMiddleware = async (ctx, next) => {
      ctx.arguments = { ...ctx.arguments, record_id: String(ctx.arguments.record_id).toUpperCase() };
      await next();
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'get_record', arguments: { record_id: 'rec-7' } }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'mw', model, tools: [getRecord], middleware: [upper] }).run('go').result;
    expect(result.toolCalls[0]?.content).toBe('Record REC-7: status open');
  });

  it('a middleware can end the run with a result once the batch is done', async () => {
    const { executed, getRecord, updateRecord } = recordTools();
    const stopAfterUpdate: FunctionMiddleware = async (ctx, next) => {
      await next();
      if (ctx.tool.name === 'update_record') ctx.endRun(`Final: ${String(ctx.result)}`);
    };
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'update_record', arguments: { record_id: 'R', status: 'done' } },
          { name: 'get_record', arguments: { record_id: 'R' } },
        ],
      },
    ]);
    const run = createAgent({ name: 'mw', model, tools: [getRecord, updateRecord], middleware: [stopAfterUpdate] }).run('go');
    const events = recordEvents(run);
    const result = await run.result;
    expect(executed).toEqual(['update_record R', 'get_record R']);
    expect(model.requests).toHaveLength(1);
    expect(result.stopReason).toBe('ended-by-middleware');
    expect(result.endedBy).toEqual({ callId: 'call_0_0', toolName: 'update_record' });
    expect(result.text).toBe('Final: Updated R to done');
    expect(result.toolCalls.map((record) => record.content)).toEqual(['Final: Updated R to done', 'Record R: status open']);
    expect(eventsOf(events, 'run.finished')[0]?.reason).toBe('ended-by-middleware');
  });

  it('endRun() without a value keeps the call’s result as the run’s result', async () => {
    const { getRecord } = recordTools();
    const model = scriptedModel([{ toolCalls: [{ name: 'get_record', arguments: { record_id: 'X' } }] }]);
    const result = await createAgent({
      name: 'mw',
      model,
      tools: [getRecord],
      middleware: [
        async (ctx, next) => {
          await next();
          ctx.endRun();
        },
      ],
    }).run('go').result;
    expect(result.text).toBe('Record X: status open');
  });

  it('a tool error propagates through next(): a middleware can catch it and answer instead', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const rescue: FunctionMiddleware = async (ctx, next) => {
      try {
        await next();
      } catch (error) {
        ctx.result = `flaky is unavailable (${(error as Error).message}); try later`;
      }
    };
    const model = scriptedModel([{ toolCalls: [{ name: 'flaky' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'mw', model, tools: [flaky], middleware: [rescue] }).run('go').result;
    expect(result.toolCalls[0]).toMatchObject({ content: 'flaky is unavailable (disk full); try later', isError: false });
  });

  it('middleware is not invoked for calls that cannot run (invalid arguments, unknown tool)', async () => {
    const { getRecord } = recordTools();
    const seen: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'get_record', arguments: { record_id: 5 } }, { name: 'nope' }] }, { text: 'ok' }]);
    const result = await createAgent({
      name: 'mw',
      model,
      tools: [getRecord],
      middleware: [
        async (ctx, next) => {
          seen.push(ctx.tool.name);
          await next();
        },
      ],
    }).run('go').result;
    expect(seen).toEqual([]);
    expect(result.toolCalls.map((record) => record.isError)).toEqual([true, true]);
  });

  it('calling next() twice is reported as a tool error, and the tool runs once', async () => {
    const { executed, getRecord } = recordTools();
    const model = scriptedModel([{ toolCalls: [{ name: 'get_record', arguments: { record_id: 'A' } }] }, { text: 'ok' }]);
    const run = createAgent({
      name: 'mw',
      model,
      tools: [getRecord],
      middleware: [
        async (_ctx, next) => {
          await next();
          await next();
        },
      ],
    }).run('go');
    const events = recordEvents(run);
    const result = await run.result;
    expect(executed).toEqual(['get_record A']);
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(eventsOf(events, 'tool.result')[0]?.error?.code).toBe('MIDDLEWARE_NEXT_TWICE');
  });

  it('a middleware option that is not a list of functions is refused where it is given, not at the first call', () => {
    const { getRecord } = recordTools();
    const model = scriptedModel([{ text: 'ok' }]);
    expect(() => createAgent({ name: 'mw', model, tools: [getRecord], middleware: [null] as never })).toThrow(
      'createAgent({ name: "mw", middleware }) takes a list of functions, e.g. [async (ctx, next) => { await next(); }]; item 0 is null.',
    );
    const agent = createAgent({ name: 'mw', model, tools: [getRecord] });
    expect(() => agent.run('go', { middleware: (async () => {}) as never })).toThrow(
      'agent.run(input, { middleware }) takes a list of functions, e.g. [async (ctx, next) => { await next(); }]; got a function.',
    );
    expect(model.requests).toEqual([]);
  });
});
