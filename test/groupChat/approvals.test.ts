import { ApprovalError, defineTool } from '@agentchart/core';
import { ChatNotWaitingError, type ChatWaiting, createGroupChat } from '@agentchart/actors';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { talker } from './chatTestKit.js';

describe('tool approvals in a chat', () => {
  it('the speaking agent waits for approval through the chat handle; approve and reject reach its run', async () => {
    const executed: string[] = [];
    const deleteFile = defineTool({
      name: 'delete_file',
      description: 'Deletes a file.',
      parameters: z.object({ path: z.string() }),
      approval: 'always',
      execute: ({ path }) => {
        executed.push(path);
        return `deleted ${path}`;
      },
    });
    const cleaner = talker(
      'cleaner',
      [
        { toolCalls: [{ id: 'd1', name: 'delete_file', arguments: { path: 'a.txt' } }, { id: 'd2', name: 'delete_file', arguments: { path: 'b.txt' } }] },
        'Deleted a.txt; b.txt was kept.',
      ],
      [deleteFile],
    );
    const chat = createGroupChat({ agents: [cleaner.agent], speakerSelection: 'round_robin', maxRounds: 1 });
    const run = chat.run('Clean up.');
    let seen: ChatWaiting | undefined;
    run.events$.subscribe((event) => {
      if (event.type !== 'agent.event' || event.event.type !== 'approval.requested' || event.event.id !== 'd2') return;
      seen = run.waiting();
      expect(() => run.snapshot()).toThrow(ChatNotWaitingError);
      expect(() => run.approve('nope')).toThrow(ApprovalError);
      run.approve('d1');
      run.reject('d2', 'Keep it.');
    });
    const result = await run.result;
    expect(seen).toEqual({
      kind: 'approval',
      speaker: 'cleaner',
      requests: [
        { id: 'd1', toolName: 'delete_file', arguments: { path: 'a.txt' }, step: 1 },
        { id: 'd2', toolName: 'delete_file', arguments: { path: 'b.txt' }, step: 1 },
      ],
    });
    expect(executed).toEqual(['a.txt']);
    expect(result.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'deleted a.txt',
      'The call of "delete_file" was rejected by the user and did not run. Reason: Keep it.',
    ]);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 1 });
  });
});
