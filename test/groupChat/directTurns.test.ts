import { type ChatEvent, createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { DirectAgentTurn } from '../../packages/actors/src/groupChat/directAgentTurn.js';

/**
 * An agent without tools takes its chat turns without an agent actor
 * (`DirectAgentTurn`) unless someone inspects the chat. The same chat run
 * both ways must give the same events, in the same order, and the same result.
 */

type Script = (index: number) => ScriptedTurn;

interface ChatShape {
  latencyMs?: number;
  maxRounds?: number;
  random?: boolean;
  maxTokens?: number;
  afterWork?: Record<string, string>;
  /** Agents given a tool (their turns take the agent actor). */
  withTool?: string[];
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => word.length,
});

function chatOf(scripts: Record<string, Script>, options: ChatShape = {}) {
  const agents = Object.entries(scripts).map(([name, script]) => {
    const agent = createAgent({
      name,
      instructions: `You are ${name}.`,
      tools: options.withTool?.includes(name) ? [lookup] : [],
      model: scriptedModel((_request, index) => script(index), { latencyMs: options.latencyMs ?? 0 }),
    });
    const afterWork = options.afterWork?.[name];
    return afterWork === undefined ? agent : { agent, afterWork };
  });
  return createGroupChat({
    agents,
    speakerSelection: options.random ? { method: 'random', seed: 7 } : 'round_robin',
    maxRounds: options.maxRounds ?? 4,
    ...(options.maxTokens === undefined ? {} : { maxTokens: { total: options.maxTokens } }),
  });
}

/** Events with the run's random ids replaced by their order of appearance. */
function normalized(events: readonly ChatEvent[]): unknown[] {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `id${ids.size}`);
    return ids.get(id);
  };
  return JSON.parse(
    JSON.stringify(events, (key, value) => ((key === 'runId' || key === 'chatId') && typeof value === 'string' ? idOf(value) : value)),
  );
}

/** Runs a fresh chat directly (nobody inspects it) and through the agent actors (an inspector), and returns both. */
async function bothWays(make: () => ReturnType<typeof chatOf>, act?: (event: ChatEvent, abort: () => void) => void) {
  const runs = [];
  for (const inspected of [false, true]) {
    const seen: string[] = [];
    const run = make().run('Plan the launch.', inspected ? { inspect: (event) => seen.push(event.type) } : {});
    const events: ChatEvent[] = [];
    run.events$.subscribe((event) => {
      events.push(event);
      act?.(event, run.abort);
    });
    const result = await run.result;
    runs.push({ events: normalized(events), result: normalized([result as unknown as ChatEvent])[0], inspectorSaw: seen.length });
  }
  const [direct, full] = runs as [(typeof runs)[0], (typeof runs)[0]];
  expect(direct.inspectorSaw).toBe(0);
  expect(full.inspectorSaw).toBeGreaterThan(0);
  return { direct, full };
}

describe('direct agent turns (no agent actor)', () => {
  it('are taken by agents without tools in a chat nobody inspects, never in an inspected one', async () => {
    const started = vi.spyOn(DirectAgentTurn.prototype, 'start');
    try {
      const script: Script = () => ({ text: 'ok' });
      await chatOf({ a: script, b: script }).run('Go.').result;
      expect(started).toHaveBeenCalledTimes(4);
      started.mockClear();
      await chatOf({ a: script, b: script }).run('Go.', { inspect: () => {} }).result;
      expect(started).not.toHaveBeenCalled();
    } finally {
      started.mockRestore();
    }
  });

  it('give the events and the result of the agent actors, for replies streamed in pieces with reasoning and usage', async () => {
    const script: Script = (index) => ({
      text: `answer ${index}`,
      reasoning: 'thinking',
      chunks: 3,
      usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
    });
    for (const latencyMs of [0, 2]) {
      const { direct, full } = await bothWays(() => chatOf({ a: script, b: script, c: script }, { latencyMs }));
      expect(direct.events).toEqual(full.events);
      expect(direct.result).toEqual(full.result);
      expect(direct.events.filter((event) => (event as ChatEvent).type === 'turn.finished')).toHaveLength(4);
    }
  });

  it('hand over to the next speaker as the selection of the manager does: random, afterWork, a token budget', async () => {
    const script: Script = (index) => ({ text: `answer ${index}`, usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 } });
    const four = { a: script, b: script, c: script, d: script };
    const cases: [ChatShape, string, string][] = [
      [{ random: true, maxRounds: 9 }, 'max-rounds', '"by":"random"'],
      [{ afterWork: { a: 'c', c: 'a' }, maxRounds: 5 }, 'max-rounds', '"via":"after-work"'],
      [{ maxTokens: 35, maxRounds: 9 }, 'token-budget', '"round":4'],
    ];
    for (const [shape, reason, seen] of cases) {
      const { direct, full } = await bothWays(() => chatOf(four, shape));
      expect(direct.events).toEqual(full.events);
      expect(direct.result).toEqual(full.result);
      expect(direct.result).toMatchObject({ reason });
      expect(JSON.stringify(direct.events)).toContain(seen);
    }
  });

  it('take turns beside agents with tools, which keep their agent actor', async () => {
    const plain: Script = (index) => ({ text: `answer ${index}` });
    const caller: Script = (index) => (index % 2 === 0 ? { toolCalls: [{ name: 'lookup', arguments: { word: 'launch' } }] } : { text: 'looked up' });
    const { direct, full } = await bothWays(() => chatOf({ a: plain, b: caller, c: plain }, { maxRounds: 6, withTool: ['b'] }));
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(JSON.stringify(direct.events)).toContain('"toolName":"lookup"');
  });

  it('end the chat as the manager does after an empty reply', async () => {
    const { direct, full } = await bothWays(() => chatOf({ a: () => ({ text: 'fine' }), b: () => ({ text: '' }) }, { maxRounds: 5 }));
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(direct.result).toMatchObject({ reason: 'empty-reply', rounds: 2 });
  });

  it('give the same failed turn when the model fails', async () => {
    const { direct, full } = await bothWays(() => chatOf({ a: () => ({ text: 'fine' }), b: () => ({ error: 'model down' }) }, { maxRounds: 3 }));
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(JSON.stringify(direct.events)).toContain('model down');
  });

  it('answer tool calls to tools the agent does not have as the agent actor does, under its limits', async () => {
    // The model calls a tool it was never offered: every call is answered with an error, until maxConsecutiveErrors ends the turn.
    const { direct, full } = await bothWays(() =>
      chatOf({ a: () => ({ toolCalls: [{ name: 'search', arguments: { q: 'x' } }] }), b: () => ({ text: 'done' }) }, { maxRounds: 2 }),
    );
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(JSON.stringify(direct.events)).toContain('max-consecutive-errors');
  });

  it('are cut short by an abort as the agent actor is, the same partial turn kept', async () => {
    const script: Script = (index) => ({ text: `answer ${index}` });
    const abortAt = (event: ChatEvent, abort: () => void) => {
      if (event.type === 'agent.event' && event.event.type === 'model.request' && event.speaker === 'b') setTimeout(abort, 0);
    };
    const { direct, full } = await bothWays(() => chatOf({ a: script, b: script }, { latencyMs: 5 }), abortAt);
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(direct.result).toMatchObject({ reason: 'aborted', rounds: 1 });
  });

  it('start as the agent actor does when a listener of `speaker.selected` aborts the chat', async () => {
    const script: Script = () => ({ text: 'ok' });
    const abortOnSelect = (event: ChatEvent, abort: () => void) => {
      if (event.type === 'speaker.selected' && event.speaker === 'b') abort();
    };
    const { direct, full } = await bothWays(() => chatOf({ a: script, b: script }, { latencyMs: 1 }), abortOnSelect);
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
  });
});
