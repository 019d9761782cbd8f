import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('concurrency', () => {
  it('two chats run at once and share nothing: transcripts, shared state and ids stay apart', async () => {
    const remember = defineTool({
      name: 'remember',
      description: 'Notes what the agent worked on.',
      parameters: z.object({ note: z.string() }),
      execute: ({ note }, ctx) => {
        ctx.state.update('notes', (notes) => [...((notes as string[] | undefined) ?? []), note]);
        return 'ok';
      },
    });
    const agentFor = (name: string) =>
      createAgent({
        name,
        tools: [remember],
        model: scriptedModel((request) => {
          const task = request.messages.find((message) => message.role === 'user')?.content;
          const last = request.messages.at(-1);
          return last?.role === 'tool'
            ? { text: `${name} on ${task}`, latencyMs: 3 }
            : { toolCalls: [{ name: 'remember', arguments: { note: `${name}:${task}` } }], latencyMs: 3 };
        }),
      });
    const chat = createGroupChat({
      agents: [agentFor('a'), agentFor('b')],
      speakerSelection: 'round_robin',
      sharedState: { notes: [] },
      maxRounds: 2,
    });
    const first = chat.run('one');
    const second = chat.run('two');
    const [one, two] = await Promise.all([first.result, second.result]);

    expect(one.chatId).not.toBe(two.chatId);
    expect(one.turns.map(({ start, end }) => one.messages.slice(start, end).at(-1)?.content)).toEqual(['a on one', 'b on one']);
    expect(two.turns.map(({ start, end }) => two.messages.slice(start, end).at(-1)?.content)).toEqual(['a on two', 'b on two']);
    expect(one.sharedState).toEqual({ notes: ['a:one', 'b:one'] });
    expect(two.sharedState).toEqual({ notes: ['a:two', 'b:two'] });
  });
});
