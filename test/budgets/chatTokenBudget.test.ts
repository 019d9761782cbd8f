import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const note = defineTool({ name: 'note', description: 'Takes a note.', parameters: z.object({}), execute: () => 'noted' });

/** An agent whose every model call reports 100 input and 20 output tokens. */
function spender(name: string, turns: number, model = `${name}-model`) {
  let calls = 0;
  return createAgent({
    name,
    model: scriptedModel(
      () => {
        calls += 1;
        // Each turn: a tool call, then an answer.
        return calls % 2 === 1
          ? { toolCalls: [{ name: 'note' }], usage: { inputTokens: 100, outputTokens: 20 } }
          : { text: `${name} ${Math.ceil(calls / 2)} of ${turns}`, usage: { inputTokens: 100, outputTokens: 20 } };
      },
      { name: model },
    ),
    tools: [note],
    maxSteps: 6,
  });
}

describe('token budgets on a group chat', () => {
  it('ends the chat with reason token-budget; the speaking agent stops after the step that spends the rest', async () => {
    const chat = createGroupChat({ agents: [spender('a', 3), spender('b', 3)], speakerSelection: 'round_robin', maxRounds: 6, maxTokens: 300 });
    const run = chat.run('Go.');
    const stops: string[] = [];
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'run.finished') stops.push(`${event.speaker}:${event.event.reason}`);
    });
    const result = await run.result;
    // a's turn: 240 tokens (two calls). b gets 60 left: its first call (120) spends it, its tool call still runs, then it stops.
    expect(stops).toEqual(['a:completed', 'b:token-budget']);
    expect(result.reason).toBe('token-budget');
    expect(result.rounds).toBe(2);
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 60 });
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'note', content: 'noted' });
  });

  it('a run option overrides the chat budget; prices give the cost of every turn', async () => {
    const chat = createGroupChat({
      agents: [spender('a', 3, 'm1'), spender('b', 3, 'm2')],
      speakerSelection: 'round_robin',
      maxRounds: 2,
      maxTokens: 100,
      prices: { m1: { input: 1, output: 1 }, m2: { input: 10, output: 10 } },
    });
    const result = await chat.run('Go.', { maxTokens: { output: 1000 } }).result;
    expect(result.reason).toBe('max-rounds');
    expect(result.usage).toEqual({ inputTokens: 400, outputTokens: 80 });
    expect(result.cost).toBeCloseTo((240 * 1 + 240 * 10) / 1_000_000, 12);
  });

  it("a nested chat gets what is left of the outer chat's budget", async () => {
    const team = createGroupChat({ name: 'team', agents: [spender('x', 3), spender('y', 3)], speakerSelection: 'round_robin', maxRounds: 4 });
    const chat = createGroupChat({ agents: [spender('a', 3), team], speakerSelection: 'round_robin', maxRounds: 4, maxTokens: { total: 500 } });
    const run = chat.run('Go.');
    const nestedEnds: string[] = [];
    run.events$.subscribe((event) => {
      if (event.type === 'nested.event' && event.event.type === 'chat.finished') nestedEnds.push(event.event.reason);
    });
    const result = await run.result;
    // a: 240; the team gets 260: x spends 240, y's first call reaches it.
    expect(nestedEnds).toEqual(['token-budget']);
    expect(result.reason).toBe('token-budget');
    expect(result.usage).toEqual({ inputTokens: 500, outputTokens: 100 });
  });
});
