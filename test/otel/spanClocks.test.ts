import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { genAiTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import type { HrTime } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryTracing } from './spanTree.js';

const nanos = (time: HrTime) => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);

/** Every way a span's times disagree with its parent's and its siblings', as readable lines (none when the clocks agree). */
function clockProblems(spans: readonly ReadableSpan[]): string[] {
  const problems: string[] = [];
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const children = new Map<string, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    if (parent === undefined || !byId.has(parent)) continue;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  for (const [parentId, kids] of children) {
    const parent = byId.get(parentId) as ReadableSpan;
    const ordered = [...kids].sort((a, b) => (nanos(a.startTime) < nanos(b.startTime) ? -1 : 1));
    ordered.forEach((child, index) => {
      if (nanos(child.startTime) < nanos(parent.startTime)) problems.push(`${child.name} starts before its parent ${parent.name}`);
      if (nanos(child.endTime) > nanos(parent.endTime)) problems.push(`${child.name} ends after its parent ${parent.name}`);
      const next = ordered[index + 1];
      if (next !== undefined && nanos(child.endTime) > nanos(next.startTime)) problems.push(`${child.name} ends after the next ${next.name} starts`);
    });
  }
  return problems;
}

describe('span clocks', () => {
  it('every span starts and ends on one clock: a child ends before its parent, a span before the next one starts', async () => {
    const { tracer, spans } = memoryTracing();
    // A tool that takes a few milliseconds, so that spans start in different milliseconds of the wall clock.
    const look = defineTool({
      name: 'look',
      description: 'Looks.',
      parameters: z.object({}),
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('seen'), 3)),
    });
    let calls = 0;
    const scout = createAgent({
      name: 'scout',
      tools: [look],
      model: scriptedModel(async (request) =>
        request.messages.at(-1)?.role === 'tool' ? { text: 'Seen it.' } : { toolCalls: [{ id: `l${++calls}`, name: 'look' }] },
      ),
    });
    const scribe = createAgent({ name: 'scribe', model: scriptedModel(async () => ({ text: 'Written down.' })) });
    const chat = createGroupChat({ name: 'survey', agents: [scout, scribe], speakerSelection: 'round_robin', maxRounds: 32 });
    const run = chat.run('Survey the hill.');
    genAiTracing({ tracer }).traceChat(run);
    await run.result;

    // The workflow; 16 scout turns of invoke_agent, two chat calls and a tool call; 16 scribe turns of invoke_agent and a chat call.
    expect(spans()).toHaveLength(1 + 16 * 4 + 16 * 2);
    expect(clockProblems(spans())).toEqual([]);
  });
});
