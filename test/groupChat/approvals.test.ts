import { ApprovalError, RunSnapshotError, defineTool } from '@agentchart/core';
import { type ChatWaiting, type GroupChatSnapshot, createGroupChat, humanAgent } from '@agentchart/actors';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { talker } from './chatTestKit.js';
import { makeCleanerChat } from './fixtures/cleanerChat.js';

function approvalWaiting(snapshot: GroupChatSnapshot) {
  if (snapshot.waiting.kind !== 'approval') throw new Error(`expected a wait for approval, got ${snapshot.waiting.kind}`);
  return snapshot.waiting;
}

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
        {
          toolCalls: [
            { id: 'd1', name: 'delete_file', arguments: { path: 'a.txt' } },
            { id: 'd2', name: 'delete_file', arguments: { path: 'b.txt' } },
          ],
        },
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
    expect(() => run.approve('d1')).toThrow(
      'No pending approval request has id "d1". The chat is not waiting for a tool approval (read run.waiting() first).',
    );
  });

  it('a chat waiting for a tool approval is persisted, resumed in a fresh chat object, approved, and the turn completes', async () => {
    const executed: string[] = [];
    const makeChat = () => makeCleanerChat(executed);

    const first = makeChat().chat.run('Tidy the folder.');
    const snapshot = await new Promise<GroupChatSnapshot>((resolve) => {
      first.events$.subscribe((event) => {
        if (event.type === 'agent.event' && event.event.type === 'approval.requested') queueMicrotask(() => resolve(first.snapshot()));
      });
    });
    first.abort();
    expect(await first.result).toMatchObject({ reason: 'aborted' });
    expect(snapshot).toMatchObject({
      version: 2,
      rounds: 1,
      lastSpeaker: 'planner',
      waiting: { kind: 'approval', speaker: 'cleaner', requests: [{ id: 'd1', toolName: 'delete_file', arguments: { path: 'a.txt' }, step: 1 }] },
    });

    // Resumed and persisted again before anyone decided, the chat is the same.
    const again = makeChat().chat.resume(JSON.parse(JSON.stringify(snapshot)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const persistedAgain = again.snapshot();
    expect({ ...persistedAgain, waiting: undefined }).toEqual({ ...snapshot, waiting: undefined });
    const { run: runAgain, ...waitingAgain } = approvalWaiting(persistedAgain);
    const { run: firstRun, ...waitingFirst } = approvalWaiting(snapshot);
    expect(waitingAgain).toEqual(waitingFirst);
    expect(runAgain).toMatchObject({ runId: firstRun.runId, machine: { value: 'awaitingApproval' } });
    again.reject('d1');
    expect(await again.result).toMatchObject({ sharedState: { deleted: null } });
    expect(executed).toEqual([]);

    const { chat, cleanerModel } = makeChat();
    const resumed = chat.resume(JSON.parse(JSON.stringify(snapshot)));
    const events: string[] = [];
    resumed.events$.subscribe((event) => events.push(event.type === 'agent.event' ? `${event.speaker}:${event.event.type}` : event.type));
    const waiting = resumed.waiting();
    expect(waiting).toEqual({ kind: 'approval', speaker: 'cleaner', requests: approvalWaiting(snapshot).requests });
    // The waiting agent is the manager's own child, restored by XState with the manager.
    const { children } = resumed.actor.getSnapshot();
    expect(children['agent:cleaner']?.getSnapshot()).toMatchObject({ value: 'awaitingApproval' });
    resumed.approve('d1');
    const result = await resumed.result;

    expect(executed).toEqual(['a.txt']);
    expect(result).toMatchObject({
      chatId: snapshot.chatId,
      reason: 'max-rounds',
      rounds: 2,
      lastSpeaker: 'cleaner',
      sharedState: { deleted: 'a.txt' },
    });
    expect(result.messages).toEqual([
      { role: 'user', content: 'Tidy the folder.' },
      { role: 'assistant', name: 'planner', content: 'Delete a.txt, please.' },
      { role: 'assistant', name: 'cleaner', content: '', toolCalls: [{ id: 'd1', name: 'delete_file', arguments: { path: 'a.txt' } }] },
      { role: 'tool', toolCallId: 'd1', toolName: 'delete_file', content: 'deleted a.txt' },
      { role: 'assistant', name: 'cleaner', content: 'Deleted a.txt.' },
    ]);
    expect(result.turns).toEqual([
      { speaker: 'planner', start: 1, end: 2, addressedTo: 'cleaner' },
      { speaker: 'cleaner', start: 2, end: 5 },
    ]);
    // The resumed agent went on with the view it had: the task, the planner's reply, its own call and the result.
    expect(cleanerModel.requests).toHaveLength(1);
    expect(cleanerModel.requests[0]?.messages.map((message) => message.role)).toEqual(['user', 'user', 'assistant', 'tool']);
    expect(events).toEqual(
      expect.arrayContaining(['chat.started', 'cleaner:approval.decided', 'cleaner:tool.result', 'turn.finished', 'chat.finished']),
    );
    const otherAgents = { ...snapshot, waiting: { ...snapshot.waiting, run: { ...approvalWaiting(snapshot).run, agent: 'planner' } } };
    expect(() => makeChat().chat.resume(otherAgents)).toThrow(RunSnapshotError);
    const people = [humanAgent({ name: 'planner' }), humanAgent({ name: 'cleaner' })];
    const plannerIsAPerson = createGroupChat({ agents: people, speakerSelection: 'round_robin', maxRounds: 2 });
    expect(() => plannerIsAPerson.resume(snapshot)).toThrow(
      'The snapshot waits for a tool approval of "cleaner", who is not an agent of this chat. Resume it with the chat that persisted it.',
    );
  });

  it('resumes from a version 2 snapshot fixture that waits for approval', async () => {
    const executed: string[] = [];
    const snapshot: unknown = JSON.parse(readFileSync(new URL('fixtures/cleanerChat.snapshot.v2.json', import.meta.url), 'utf8'));
    const run = makeCleanerChat(executed).chat.resume(snapshot);
    expect(run.waiting()).toMatchObject({ kind: 'approval', speaker: 'cleaner', requests: [{ id: 'd1', toolName: 'delete_file' }] });
    run.approve('d1');
    const result = await run.result;
    expect(executed).toEqual(['a.txt']);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'cleaner', content: 'Deleted a.txt.' });
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 2, sharedState: { deleted: 'a.txt' } });
  });
});
