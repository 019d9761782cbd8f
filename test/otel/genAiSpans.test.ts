import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { genAiTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryTracing, spanNamed, spanTree } from './spanTree.js';

const getWeather = defineTool({
  name: 'get_weather',
  description: 'The weather in a city.',
  parameters: z.object({ city: z.string(), apiKey: z.string().optional() }),
  execute: ({ city }) => `Sunny in ${city}, 24°C.`,
});

/** A two-agent chat: the researcher calls a tool, then answers; the writer answers. */
function twoAgentChat() {
  const researcher = createAgent({
    name: 'researcher',
    model: scriptedModel(
      [
        {
          toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Lisbon', apiKey: 'sk-live-1234567890abcdef' } }],
          usage: { inputTokens: 50, outputTokens: 10 },
        },
        { text: 'Lisbon: sunny, 24°C.', usage: { inputTokens: 80, outputTokens: 8 } },
      ],
      { name: 'qwen3:8b' },
    ),
    tools: [getWeather],
  });
  const writer = createAgent({
    name: 'writer',
    model: scriptedModel([{ text: 'Pack sunglasses.', usage: { inputTokens: 60, outputTokens: 4 } }], { name: 'llama3.2:3b' }),
  });
  return createGroupChat({ name: 'trip_planning', agents: [researcher, writer], speakerSelection: 'round_robin', maxRounds: 2 });
}

describe('genAiTracing', () => {
  it('traces a two-agent chat with a tool call as invoke_workflow → invoke_agent → chat / execute_tool spans', async () => {
    const { tracer, spans } = memoryTracing();
    const tracing = genAiTracing({ tracer, prices: { 'qwen3:8b': { input: 1, output: 2 } } });
    const run = twoAgentChat().run('Weather for a trip to Lisbon?');
    tracing.traceChat(run);
    const result = await run.result;

    expect(spanTree(spans())).toBe(
      [
        'invoke_workflow trip_planning [INTERNAL] operation.name="invoke_workflow" agent.name="trip_planning" usage.input_tokens=190 usage.output_tokens=22 agentchart.usage.cost=0.000166 agentchart.stop_reason="max-rounds" events=agentchart.speaker.selected,agentchart.speaker.selected',
        '  invoke_agent researcher [INTERNAL] operation.name="invoke_agent" provider.name="scripted" agent.name="researcher" request.model="qwen3:8b" usage.input_tokens=130 usage.output_tokens=18 agentchart.usage.cost=0.000166 agentchart.stop_reason="completed"',
        '    chat qwen3:8b [CLIENT] operation.name="chat" provider.name="scripted" request.model="qwen3:8b" response.finish_reasons=["tool-calls"] usage.input_tokens=50 usage.output_tokens=10 agentchart.usage.cost=0.00007',
        '    execute_tool get_weather [INTERNAL] operation.name="execute_tool" tool.name="get_weather" tool.call.id="call_1"',
        '    chat qwen3:8b [CLIENT] operation.name="chat" provider.name="scripted" request.model="qwen3:8b" response.finish_reasons=["stop"] usage.input_tokens=80 usage.output_tokens=8 agentchart.usage.cost=0.000096',
        '  invoke_agent writer [INTERNAL] operation.name="invoke_agent" provider.name="scripted" agent.name="writer" request.model="llama3.2:3b" usage.input_tokens=60 usage.output_tokens=4 agentchart.stop_reason="completed"',
        '    chat llama3.2:3b [CLIENT] operation.name="chat" provider.name="scripted" request.model="llama3.2:3b" response.finish_reasons=["stop"] usage.input_tokens=60 usage.output_tokens=4',
      ].join('\n'),
    );
    // Every span of the chat carries its id as the conversation id; one trace.
    const all = spans();
    expect(
      all
        .filter((span) => span.name !== 'invoke_workflow trip_planning')
        .every((span) => span.attributes['gen_ai.conversation.id'] === result.chatId),
    ).toBe(true);
    expect(new Set(all.map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(spanNamed(all, 'invoke_agent researcher').attributes['gen_ai.agent.id']).toMatch(/.+/);
  });

  it('records no content by default, and sanitised content when opted in', async () => {
    const quiet = memoryTracing();
    const quietRun = twoAgentChat().run('Weather for a trip to Lisbon?');
    genAiTracing({ tracer: quiet.tracer }).traceChat(quietRun);
    await quietRun.result;
    const contentKeys = ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result'];
    expect(
      quiet
        .spans()
        .flatMap((span) => Object.keys(span.attributes))
        .filter((key) => contentKeys.includes(key)),
    ).toEqual([]);

    const loud = memoryTracing();
    const loudRun = twoAgentChat().run('Weather for a trip to Lisbon?');
    genAiTracing({ tracer: loud.tracer, captureContent: true }).traceChat(loudRun);
    await loudRun.result;
    const tool = spanNamed(loud.spans(), 'execute_tool get_weather');
    expect(JSON.parse(tool.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ city: 'Lisbon', apiKey: '[redacted]' });
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('Sunny in Lisbon, 24°C.');
    const [firstCall, secondCall] = loud.spans().filter((span) => span.name === 'chat qwen3:8b');
    expect(JSON.parse(firstCall?.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather for a trip to Lisbon?' }] },
    ]);
    expect(JSON.parse(firstCall?.attributes['gen_ai.output.messages'] as string)).toEqual([
      {
        role: 'assistant',
        name: 'researcher',
        finish_reason: 'tool-calls',
        parts: [{ type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: { city: 'Lisbon', apiKey: '[redacted]' } }],
      },
    ]);
    expect(JSON.parse(secondCall?.attributes['gen_ai.input.messages'] as string).at(-1)).toEqual({
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: 'call_1', response: 'Sunny in Lisbon, 24°C.' }],
    });
  });

  it('records a failing tool and a failing model with status ERROR and error.type', async () => {
    const { tracer, spans } = memoryTracing();
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: () => {
        throw Object.assign(new Error('disk full'), { code: 'DISK_FULL' });
      },
    });
    let calls = 0;
    const model = scriptedModel(() => {
      calls += 1;
      if (calls === 1) return { toolCalls: [{ id: 'b1', name: 'broken', arguments: {} }] };
      throw Object.assign(new Error('model server down'), { code: 'MODEL_UNAVAILABLE' });
    });
    const run = createAgent({ name: 'fragile', model, tools: [broken] }).run('Go.');
    genAiTracing({ tracer }).traceRun(run);
    const result = await run.result;
    expect(result.stopReason).toBe('error');

    const tool = spanNamed(spans(), 'execute_tool broken');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' });
    expect(tool.attributes['error.type']).toBe('DISK_FULL');
    expect(tool.events.map((event) => event.name)).toEqual(['exception']);
    const [, failedCall] = spans().filter((span) => span.name === 'chat scripted');
    expect(failedCall?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failedCall?.attributes['error.type']).toBe('MODEL_UNAVAILABLE');
    const agent = spanNamed(spans(), 'invoke_agent fragile');
    expect(agent.status).toEqual({ code: SpanStatusCode.ERROR, message: 'model server down' });
    expect(agent.attributes['agentchart.stop_reason']).toBe('error');
  });
});
