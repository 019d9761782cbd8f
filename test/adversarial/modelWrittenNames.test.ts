import { createAgent } from '@agentchart/actors';
import { ApprovalError, defineTool, redactText } from '@agentchart/core';
import { createTraceRecorder, memorySink, startViewServer } from '@agentchart/inspect';
import { genAiTracing } from '@agentchart/otel';
import { openai, scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from '../otel/spanTree.js';

/** The provider's API key: registered by `openai()`, a value of no known token shape. */
const API_KEY = 'provider-key-Q7wZ3xT9mK';
openai({ model: 'gpt-test', apiKey: API_KEY, baseURL: 'http://127.0.0.1:9/v1' });

/** A tool name the model made up: the key inside, 100,000 characters after it. */
const MADE_UP_TOOL = `steal_${API_KEY}_${'x'.repeat(100_000)}`;
/** How every export shows it: redacted, then cut at 128 characters with a note of the rest. */
const SHOWN_TOOL = `steal_[redacted]_${'x'.repeat(111)}…[+99889 characters]`;
/** A call id the model wrote, the key inside too. */
const MADE_UP_ID = `call_${API_KEY}_${'y'.repeat(1_000)}`;
const SHOWN_ID = `call_[redacted]_${'y'.repeat(112)}…[+888 characters]`;

const look = defineTool({ name: 'look', description: 'Looks.', parameters: z.object({}), execute: () => 'seen' });
const pay = defineTool({ name: 'pay', description: 'Pays.', parameters: z.object({}), approval: 'always', execute: () => 'paid' });

/** A run whose model calls a tool it made up (with a made-up id) beside a real one. */
function hostileRun(inspect?: Parameters<ReturnType<typeof createAgent>['run']>[1]) {
  const model = scriptedModel([
    {
      toolCalls: [
        { id: MADE_UP_ID, name: MADE_UP_TOOL },
        { id: 'l1', name: 'look' },
      ],
    },
    { text: 'Done.' },
  ]);
  return createAgent({ name: 'scout', tools: [look], model }).run('Look around.', inspect);
}

describe('model-written names in every export: redacted and cut', () => {
  it('the registered key is a secret', () => {
    expect(redactText(`key ${API_KEY}`)).toBe('key [redacted]');
  });

  for (const captureContent of [false, true]) {
    it(`OpenTelemetry (captureContent: ${captureContent}): an unknown tool is an event with the name redacted and cut; the key is nowhere`, async () => {
      const { tracer, spans } = memoryTracing();
      const run = hostileRun();
      genAiTracing({ tracer, captureContent }).traceRun(run);
      await run.result;

      expect(spans().map((span) => span.name)).toEqual(['chat scripted', 'execute_tool look', 'chat scripted', 'invoke_agent scout']);
      const agent = spans().find((span) => span.name === 'invoke_agent scout');
      expect(agent?.events.map((event) => [event.name, event.attributes])).toEqual([
        ['agentchart.tool.unknown', { 'gen_ai.tool.name': SHOWN_TOOL, 'gen_ai.tool.call.id': SHOWN_ID, 'agentchart.step': 1 }],
      ]);
      const exported = JSON.stringify(
        spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
      );
      expect(exported).not.toContain(API_KEY);
      expect(exported).not.toContain('x'.repeat(2_001));
    });
  }

  it('OpenTelemetry: the approval events of a call with a made-up id, and a person-written reason, go out redacted and cut', async () => {
    const { tracer, spans } = memoryTracing();
    const model = scriptedModel([{ toolCalls: [{ id: MADE_UP_ID, name: 'pay' }] }, { text: 'Not paid.' }]);
    const run = createAgent({ name: 'payer', tools: [pay], model }).run('Pay.');
    genAiTracing({ tracer }).traceRun(run);
    run.events$.subscribe((event) => {
      if (event.type === 'approval.requested') queueMicrotask(() => run.reject(event.id, `no, ${API_KEY}`));
    });
    await run.result;

    const events = spans().flatMap((span) => span.events.map((event) => [span.name, event.name, event.attributes]));
    expect(events).toEqual([
      ['execute_tool pay', 'agentchart.approval.requested', { 'gen_ai.tool.name': 'pay', 'gen_ai.tool.call.id': SHOWN_ID }],
      [
        'execute_tool pay',
        'agentchart.approval.decided',
        { 'gen_ai.tool.name': 'pay', 'gen_ai.tool.call.id': SHOWN_ID, 'agentchart.approved': false, 'agentchart.reason': 'no, [redacted]' },
      ],
    ]);
  });

  it('traces: the made-up name is redacted and cut in the run entries and the snapshots; the key is nowhere', async () => {
    const sink = memorySink();
    const recorder = createTraceRecorder({ sink, title: 'hostile' });
    const run = hostileRun({ inspect: recorder.inspect });
    recorder.recordRun(run);
    await run.result;
    await recorder.close();

    const runEvents = sink.lines.flatMap((line) => (line.kind === 'run' ? [line.event as Record<string, unknown>] : []));
    const calls = runEvents.flatMap((event) => (event.type === 'tool.call' ? [event.call as { id: string; name: string }] : []));
    expect(calls.map((call) => call.name)).toEqual([SHOWN_TOOL, 'look']);
    const result = runEvents.find((event) => event.type === 'tool.result' && event.callId !== 'l1');
    expect(result?.toolName).toBe(SHOWN_TOOL);
    expect(result?.content).toBe(`Unknown tool "${SHOWN_TOOL}". Available tools: look.`);
    const text = sink.toNdjson();
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('x'.repeat(2_001));
  });

  it('the live view: a replayed trace line with the raw name is served redacted and cut', async () => {
    const view = await startViewServer({ port: 0 });
    try {
      view.sink.write({
        kind: 'run',
        seq: 0,
        t: 0,
        event: { type: 'tool.call', runId: 'r1', agent: 'scout', step: 1, call: { id: 'c1', name: MADE_UP_TOOL } },
      });
      view.sink.write({
        kind: 'run',
        seq: 1,
        t: 1,
        event: { type: 'tool.result', runId: 'r1', agent: 'scout', step: 1, callId: 'c1', toolName: MADE_UP_TOOL, content: 'no', isError: true },
      });
      const served = await (await fetch(`${view.url}trace.ndjson`)).text();
      expect(served).not.toContain(API_KEY);
      expect(
        served
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line)),
      ).toEqual([
        { kind: 'run', seq: 0, t: 0, event: { type: 'tool.call', runId: 'r1', agent: 'scout', step: 1, call: { id: 'c1', name: SHOWN_TOOL } } },
        {
          kind: 'run',
          seq: 1,
          t: 1,
          event: { type: 'tool.result', runId: 'r1', agent: 'scout', step: 1, callId: 'c1', toolName: SHOWN_TOOL, content: 'no', isError: true },
        },
      ]);
    } finally {
      await view.close();
    }
  });

  it('errors: what the model and the caller read name the made-up tool and id redacted and cut', async () => {
    const events: { type: string; content?: string }[] = [];
    const unknown = hostileRun();
    unknown.events$.subscribe((event) => events.push(event));
    await unknown.result;
    expect(events.find((event) => event.type === 'tool.result')?.content).toBe(`Unknown tool "${SHOWN_TOOL}". Available tools: look.`);

    const model = scriptedModel([{ toolCalls: [{ id: MADE_UP_ID, name: 'pay' }] }, { text: 'Not paid.' }]);
    const run = createAgent({ name: 'payer', tools: [pay], model }).run('Pay.');
    await new Promise<void>((resolve) => run.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
    let thrown: unknown;
    try {
      run.approve('call_2');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApprovalError);
    expect((thrown as ApprovalError).message).toBe(`No pending approval request has id "call_2". Pending: ${SHOWN_ID}.`);
    run.abort();
    await run.result;
  });
});
