import { createAgent } from '@agentchart/actors';
import { ToolError, defineTool } from '@agentchart/core';
import { genAiTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryTracing, spanNamed, spanTree } from './spanTree.js';

describe('execute_tool spans: what a call ends with', () => {
  it("an aborted run's in-flight execute_tool span ends without an error status", async () => {
    const { tracer, spans } = memoryTracing();
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until aborted.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          started();
          ctx.signal.addEventListener('abort', () => resolve('stopped'));
        }),
    });
    const run = createAgent({ name: 'waiter', tools: [wait], model: scriptedModel([{ toolCalls: [{ id: 'w1', name: 'wait' }] }]) }).run('Wait.');
    genAiTracing({ tracer }).traceRun(run);
    await running;
    run.abort();
    expect((await run.result).stopReason).toBe('aborted');

    const tool = spanNamed(spans(), 'execute_tool wait');
    expect(tool.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(tool.attributes['error.type']).toBeUndefined();
    expect(tool.attributes['agentchart.aborted']).toBe(true);
    expect(tool.events.map((event) => event.name)).toEqual([]);
    expect(spanNamed(spans(), 'invoke_agent waiter').status).toEqual({ code: SpanStatusCode.UNSET });
  });

  it('a failed tool with content capture on keeps its error out of gen_ai.tool.call.result: the error is the status', async () => {
    const { tracer, spans } = memoryTracing();
    const charge = defineTool({
      name: 'charge',
      description: 'Charges a card.',
      parameters: z.object({}),
      execute: () => {
        throw new ToolError('Card declined.');
      },
    });
    const run = createAgent({
      name: 'cashier',
      tools: [charge],
      model: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'charge' }] }, { text: 'It failed.' }]),
    }).run('Charge it.');
    genAiTracing({ tracer, captureContent: true }).traceRun(run);
    await run.result;

    const tool = spanNamed(spans(), 'execute_tool charge');
    expect(tool.attributes['gen_ai.tool.call.result']).toBeUndefined();
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{}');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Card declined.' });
    expect(tool.attributes['error.type']).toBe('TOOL_ERROR');
  });

  it('a call of a tool the model made up is an agentchart.tool.unknown event of invoke_agent, not an execute_tool span', async () => {
    const { tracer, spans } = memoryTracing();
    const look = defineTool({ name: 'look', description: 'Looks.', parameters: z.object({}), execute: () => 'seen' });
    const run = createAgent({
      name: 'scout',
      tools: [look],
      model: scriptedModel([
        {
          toolCalls: [
            { id: 'x1', name: 'launch_rockets' },
            { id: 'l1', name: 'look' },
          ],
        },
        { text: 'Done.' },
      ]),
    }).run('Look around.');
    genAiTracing({ tracer }).traceRun(run);
    await run.result;

    expect(spanTree(spans(), ['gen_ai.tool.call.id'])).toBe(
      [
        'invoke_agent scout [INTERNAL] events=agentchart.tool.unknown',
        '  chat scripted [CLIENT]',
        '  execute_tool look [INTERNAL] tool.call.id="l1"',
        '  chat scripted [CLIENT]',
      ].join('\n'),
    );
    expect(spanNamed(spans(), 'invoke_agent scout').events.map((event) => [event.name, event.attributes])).toEqual([
      ['agentchart.tool.unknown', { 'gen_ai.tool.name': 'launch_rockets', 'gen_ai.tool.call.id': 'x1', 'agentchart.step': 1 }],
    ]);
  });
});
