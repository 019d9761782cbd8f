import { createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { talker } from './chatTestKit.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a fact up.',
  parameters: z.object({ topic: z.string() }),
  execute: ({ topic }) => `${topic}: 42`,
});

describe('views', () => {
  it('broadcast: every agent sees the task, its own turns in full and the others’ replies as named user messages', async () => {
    const a = talker('a', [{ text: 'Looking.', toolCalls: [{ name: 'lookup', arguments: { topic: 'x' } }] }, 'x is 42.', 'Agreed.'], [lookup]);
    const b = talker('b', ['Checked.']);
    const chat = createGroupChat({ agents: [a.agent, b.agent], speakerSelection: 'round_robin', maxRounds: 3 });
    await chat.run('Find x.').result;
    expect(b.model.requests[0]?.messages).toEqual([
      { role: 'system', content: 'You are b.' },
      { role: 'user', content: 'Find x.' },
      { role: 'user', name: 'a', content: 'Looking.\n\nx is 42.' },
    ]);
    expect(a.model.requests[2]?.messages).toEqual([
      { role: 'system', content: 'You are a.' },
      { role: 'user', content: 'Find x.' },
      { role: 'assistant', name: 'a', content: 'Looking.', toolCalls: [{ id: 'call_0_0', name: 'lookup', arguments: { topic: 'x' } }] },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'lookup', content: 'x: 42' },
      { role: 'assistant', name: 'a', content: 'x is 42.' },
      { role: 'user', name: 'b', content: 'Checked.' },
    ]);
  });

  it('isolated: each agent sees only the task, its own turns and the replies passed to it', async () => {
    const a = talker('a', ['A1', 'A2']);
    const b = talker('b', ['B1']);
    const c = talker('c', ['C1']);
    const chat = createGroupChat({ agents: [a.agent, b.agent, c.agent], speakerSelection: 'round_robin', views: 'isolated', maxRounds: 4 });
    const result = await chat.run('Task.').result;
    expect(c.model.requests[0]?.messages).toEqual([
      { role: 'system', content: 'You are c.' },
      { role: 'user', content: 'Task.' },
      { role: 'user', name: 'b', content: 'B1' },
    ]);
    expect(a.model.requests[1]?.messages).toEqual([
      { role: 'system', content: 'You are a.' },
      { role: 'user', content: 'Task.' },
      { role: 'assistant', name: 'a', content: 'A1' },
      { role: 'user', name: 'c', content: 'C1' },
    ]);
    expect(result.turns.map(({ speaker, addressedTo }) => `${speaker}>${addressedTo ?? ''}`)).toEqual(['a>b', 'b>c', 'c>a', 'a>']);
  });
});
