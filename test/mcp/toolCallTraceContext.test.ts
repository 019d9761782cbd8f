import { join } from 'node:path';
import { createAgent, createGroupChat } from '@agentchart/actors';
import { mcpServer } from '@agentchart/mcp';
import { genAiTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';

const modern = { command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'modernServer.mjs')] };

/** A tracer on an in-memory exporter; no global context manager or propagator is registered. */
function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracing: genAiTracing({ tracer: provider.getTracer('test') }) };
}

const traceparentOf = (span: ReadableSpan) => `00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`;
/** What the server's `add` tool saw in its request's `_meta.traceparent` (it echoes it in its result's `_meta`). */
const received = (value: unknown) => (value as { _meta: { traceparent: unknown } })._meta.traceparent;

describe("an MCP call's _meta carries the trace context of the run's execute_tool span", () => {
  for (const protocol of ['2026-07-28', '2025-11-25'] as const) {
    it(`an agent run (${protocol}): the server receives the execute_tool span's trace id and span id`, async () => {
      const { exporter, tracing: genAi } = tracing();
      const agent = createAgent({
        name: 'calc',
        model: scriptedModel([
          { toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] },
          { toolCalls: [{ name: 'add', arguments: { a: 2, b: 2 } }] },
          { text: 'Done.' },
        ]),
        toolSources: [mcpServer({ name: 'modern', ...modern, protocol })],
      });
      try {
        const run = agent.run('Add.');
        genAi.traceRun(run);
        const result = await run.result;
        const toolSpans = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool add');
        expect(toolSpans).toHaveLength(2);
        // Each call carries its own span: the two differ, and both are in the run's trace.
        expect(result.toolCalls.map((record) => received(record.value))).toEqual(toolSpans.map(traceparentOf));
        const agentSpan = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent calc');
        expect(new Set(toolSpans.map((span) => span.spanContext().traceId))).toEqual(new Set([agentSpan?.spanContext().traceId]));
      } finally {
        await agent.close();
      }
    });
  }

  it("a group chat's agent turn: the call's span, under the chat's trace", async () => {
    const { exporter, tracing: genAi } = tracing();
    const agent = createAgent({
      name: 'calc',
      model: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 3, b: 4 } }] }, { text: 'Seven.' }]),
      toolSources: [mcpServer({ name: 'modern', ...modern })],
      // A chat's result keeps messages, not values: the value is read on its way out.
      middleware: [
        async (ctx, next) => {
          await next();
          values.push((ctx.result as { value: unknown }).value); // the tool's `toolResult(value, { text })`
        },
      ],
    });
    const values: unknown[] = [];
    try {
      await agent.loadTools();
      const run = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 }).run('Add.');
      genAi.traceChat(run);
      const result = await run.result;
      const [toolSpan] = exporter.getFinishedSpans().filter((span) => span.name === 'execute_tool add');
      const toolMessages = result.messages.filter((message) => message.role === 'tool');
      expect(toolMessages.map((message) => message.content)).toEqual(['Sum: 7 (over 2026-07-28)']);
      expect(values.map(received)).toEqual([traceparentOf(toolSpan!)]);
      const chatSpan = exporter.getFinishedSpans().find((span) => span.name.startsWith('invoke_workflow'));
      expect(toolSpan?.spanContext().traceId).toBe(chatSpan?.spanContext().traceId);
    } finally {
      await agent.close();
    }
  });

  it('without a tracer the request carries no traceparent', async () => {
    const agent = createAgent({
      name: 'calc',
      model: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { text: 'Three.' }]),
      toolSources: [mcpServer({ name: 'modern', ...modern })],
    });
    try {
      const result = await agent.run('Add.').result;
      expect(received(result.toolCalls[0]!.value)).toBeNull();
    } finally {
      await agent.close();
    }
  });
});
