import { join } from 'node:path';
import { createAgent } from '@agentchart/actors';
import { McpServerError, mcpServer } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectEvents, everythingServer } from './mcpTestServers.js';

const modern = { command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'modernServer.mjs')] };

describe('mcpServer and the two protocol lines (a v2 SDK server over stdio)', () => {
  it('speaks 2026-07-28 to a server that offers it, and 2025-11-25 when pinned', async () => {
    for (const [protocol, line] of [
      [undefined, '2026-07-28'],
      ['2026-07-28', '2026-07-28'],
      ['2025-11-25', 'initialize'],
    ] as const) {
      const server = mcpServer({ name: 'modern', ...modern, ...(protocol ? { protocol } : {}) });
      const agent = createAgent({
        name: 'calc',
        model: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'Five.' }]),
        toolSources: [server],
      });
      try {
        const result = await agent.run('Add 2 and 3.').result;
        expect(result.toolCalls[0]).toMatchObject({ content: `Sum: 5 (over ${line})`, isError: false });
        if (protocol === undefined) {
          const call = result.toolCalls[0]!;
          console.log(
            `[an agent using a 2026-07-28 server over stdio]\ncalc calls ${call.call.name} ${JSON.stringify(call.call.arguments)}\n-> ${call.content}\nagent answers: ${result.text} (${result.stopReason}, ${result.steps} steps)`,
          );
        }
      } finally {
        await agent.close();
      }
    }
  });

  it('a pinned 2026-07-28 against a 2025-11-25 server is a connection error naming the line', async () => {
    const server = mcpServer({ name: 'everything', ...everythingServer(), protocol: '2026-07-28' });
    try {
      const error = await server.loadTools().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpServerError);
      expect((error as McpServerError).code).toBe('MCP_CONNECTION_FAILED');
      expect((error as Error).message).toContain('Check that the server speaks MCP 2026-07-28.');
    } finally {
      await server.close();
    }
  });

  it('on 2026-07-28: progress, a list change over subscriptions/listen, and structured results with an output schema', async () => {
    const server = mcpServer({ name: 'modern', ...modern });
    const agent = createAgent({
      name: 'worker',
      model: scriptedModel([
        { toolCalls: [{ name: 'progress', arguments: {} }] },
        { toolCalls: [{ name: 'unlock', arguments: {} }] },
        { toolCalls: [{ name: 'secret', arguments: {} }] },
        { toolCalls: [{ name: 'weather', arguments: { city: 'Lisbon' } }] },
        { text: 'Done.' },
      ]),
      toolSources: [server],
    });
    try {
      const run = agent.run('Go.');
      const events = collectEvents(run);
      const result = await run.result;
      const progress = (await events).filter((event) => event.type === 'tool.progress');
      expect(progress.map((event) => (event as { message?: string }).message)).toEqual(['step 1', 'step 2']);
      expect(result.toolCalls.map((record) => [record.call.name, record.content, record.isError])).toEqual([
        ['progress', 'done', false],
        ['unlock', 'Unlocked.', false],
        ['secret', 'The secret is 42.', false],
        ['weather', 'Lisbon: 21 °C', false],
      ]);
    } finally {
      await agent.close();
    }
  });
});

describe('input requests from a server (multi-round-trip on 2026-07-28)', () => {
  it("onInputRequest asks a person; the call is sent again with the answer; a decline is the server's to handle", async () => {
    const asked: unknown[] = [];
    const answers = [{ action: 'accept', content: { seat: '12A' } } as const, { action: 'decline' } as const];
    const server = mcpServer({
      name: 'airline',
      ...modern,
      timeoutMs: 500,
      onInputRequest: async (request) => {
        const { signal: _signal, ...shown } = request;
        asked.push(shown);
        await new Promise((resolve) => setTimeout(resolve, 800)); // longer than timeoutMs: the wait does not count
        return answers[asked.length - 1]!;
      },
    });
    const agent = createAgent({
      name: 'agent',
      model: scriptedModel([
        { toolCalls: [{ name: 'book', arguments: { flight: 'TP123' } }] },
        { toolCalls: [{ name: 'book', arguments: { flight: 'TP456' } }] },
        { text: 'Done.' },
      ]),
      toolSources: [server],
    });
    try {
      const run = agent.run('Book.');
      const events = collectEvents(run);
      const result = await run.result;
      expect(result.toolCalls.map((record) => [record.content, record.isError])).toEqual([
        ['Booked TP123, seat 12A.', false],
        ['Not booked: no seat chosen for TP456.', false],
      ]);
      expect(asked[0]).toEqual({
        serverName: 'airline',
        toolName: 'book',
        callId: result.toolCalls[0]!.call.id,
        runId: run.runId,
        message: 'Which seat on TP123?',
        requestedSchema: expect.objectContaining({ type: 'object', properties: { seat: { type: 'string' } } }),
      });
      const waits = (await events).filter((event) => event.type === 'tool.progress').map((event) => (event as { message?: string }).message);
      expect(waits).toEqual(['waiting for a person: Which seat on TP123?', 'waiting for a person: Which seat on TP456?']);
    } finally {
      await agent.close();
    }
  });
});

describe('trace context in _meta', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(() => {
    context.disable();
    propagation.disable();
  });

  it('the active span of the run reaches the server as traceparent', async () => {
    const tracer = new BasicTracerProvider().getTracer('test');
    const server = mcpServer({ name: 'modern', ...modern });
    const agent = createAgent({
      name: 'calc',
      model: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }, { text: 'Two.' }]),
      toolSources: [server],
    });
    try {
      const span = tracer.startSpan('request');
      const result = await context.with(trace.setSpan(context.active(), span), () => agent.run('Add.').result);
      span.end();
      const { traceId, spanId } = span.spanContext();
      expect((result.toolCalls[0]!.value as { _meta: unknown })._meta).toEqual({
        'io.modelcontextprotocol/serverInfo': { name: 'modern', version: '2.0.0' },
        traceparent: `00-${traceId}-${spanId}-01`,
      });
    } finally {
      await agent.close();
    }
  });
});
