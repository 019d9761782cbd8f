import { type GroupChatSnapshot, createGroupChat, humanAgent } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { record, talker } from './chatTestKit.js';
import { makeCleanerChat } from './fixtures/cleanerChat.js';

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a small fish`,
});

/** A tool that never returns on its own: it ends only when its call is aborted. */
const hang = defineTool({
  name: 'hang',
  description: 'Takes forever.',
  parameters: z.object({}),
  execute: (_args, ctx) => new Promise<string>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
});

const lookupCall = { id: 'c1', name: 'lookup', arguments: { word: 'sprat' } };
const lookupReply = { role: 'assistant', name: 'a', content: '', toolCalls: [lookupCall] } as const;
const lookupResult = { role: 'tool', toolCallId: 'c1', toolName: 'lookup', content: 'sprat: a small fish' } as const;

describe('a turn cut short', () => {
  it('an aborted chat keeps what the speaker produced in its turn: its tool calls and their results, as a partial turn', async () => {
    const a = talker('a', [{ toolCalls: [lookupCall] }, { text: 'late', latencyMs: 5_000 }], [lookup]);
    const chat = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 5 });
    const run = chat.run('What is a sprat?');
    const events = record(run);
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'model.request' && event.event.step === 2) setTimeout(run.abort, 0);
    });
    const result = await run.result;

    expect(result.messages).toEqual([{ role: 'user', content: 'What is a sprat?' }, lookupReply, lookupResult]);
    expect(result.turns).toEqual([{ speaker: 'a', start: 1, end: 3, partial: true }]);
    expect(result).toMatchObject({ reason: 'aborted', rounds: 1, lastSpeaker: 'a' });
    expect(events.filter((event) => event.type === 'turn.finished')).toEqual([
      { type: 'turn.finished', chatId: result.chatId, round: 1, speaker: 'a', messages: [lookupReply, lookupResult], partial: true },
    ]);
    expect(events.at(-1)).toEqual({ type: 'chat.finished', chatId: result.chatId, reason: 'aborted', rounds: 1, lastSpeaker: 'a' });
  });

  it('a call still running when the chat is aborted is answered as cut short; the results that came back are kept', async () => {
    const calls = [
      { id: 'c1', name: 'lookup', arguments: { word: 'sprat' } },
      { id: 'c2', name: 'hang', arguments: {} },
    ];
    const a = talker('a', [{ toolCalls: calls }], [lookup, hang]);
    const chat = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 5 });
    const run = chat.run('What is a sprat?');
    // Aborted from inside the event handler, while the speaker's run reports the first result.
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'tool.result' && event.event.callId === 'c1') run.abort();
    });
    const result = await run.result;

    expect(result.messages.slice(1)).toEqual([
      { role: 'assistant', name: 'a', content: '', toolCalls: calls },
      lookupResult,
      {
        role: 'tool',
        toolCallId: 'c2',
        toolName: 'hang',
        content: 'The chat was aborted before this call returned a result.',
        isError: true,
      },
    ]);
    expect(result.turns).toEqual([{ speaker: 'a', start: 1, end: 4, partial: true }]);
    expect(result.reason).toBe('aborted');
  });

  it('a chat resumed from an aborted chat’s messages shows the speaker its partial turn', async () => {
    const a = talker('a', [{ toolCalls: [lookupCall] }, { text: 'late', latencyMs: 5_000 }, 'A sprat is a small fish.'], [lookup]);
    const chat = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 2 });
    const first = chat.run('What is a sprat?');
    first.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'model.request' && event.event.step === 2) setTimeout(first.abort, 0);
    });
    const aborted = await first.result;

    const resumed = await chat.run(aborted.messages).result;
    expect(a.model.requests[2]?.messages.filter((message) => message.role !== 'system')).toEqual([
      { role: 'user', content: 'What is a sprat?' },
      lookupReply,
      lookupResult,
    ]);
    expect(resumed.turns).toEqual([
      { speaker: 'a', start: 1, end: 3, addressedTo: 'a' },
      { speaker: 'a', start: 3, end: 4 },
    ]);
    expect(resumed).toMatchObject({ reason: 'max-rounds', rounds: 2 });
  });

  it('an agent waiting for a tool approval when the chat is aborted: its calls are answered as not run', async () => {
    const guarded = defineTool({ ...lookup, name: 'guarded', approval: 'always' });
    const call = { id: 'g1', name: 'guarded', arguments: { word: 'sprat' } };
    const a = talker('a', [{ toolCalls: [call] }], [guarded]);
    const chat = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 5 });
    const run = chat.run('What is a sprat?');
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'approval.requested') queueMicrotask(run.abort);
    });
    const result = await run.result;
    expect(result.messages.slice(1)).toEqual([
      { role: 'assistant', name: 'a', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: 'g1', toolName: 'guarded', content: 'The chat was aborted before this call returned a result.', isError: true },
    ]);
    expect(result).toMatchObject({ reason: 'aborted', rounds: 1, turns: [{ speaker: 'a', start: 1, end: 3, partial: true }] });
  });

  it('a chat resumed while its speaker waited for approval keeps that turn as partial when aborted, even before it started', async () => {
    const first = makeCleanerChat([]).chat.run('Tidy the folder.');
    const snapshot = await new Promise<GroupChatSnapshot>((resolve) => {
      first.events$.subscribe((event) => {
        if (event.type === 'agent.event' && event.event.type === 'approval.requested') queueMicrotask(() => resolve(first.snapshot()));
      });
    });
    first.abort();
    await first.result;

    const call = { id: 'd1', name: 'delete_file', arguments: { path: 'a.txt' } };
    const cut = [
      { role: 'assistant', name: 'cleaner', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: 'd1', toolName: 'delete_file', content: 'The chat was aborted before this call returned a result.', isError: true },
    ];
    for (const when of ['after start', 'before start', 'by an aborted signal'] as const) {
      const resumed = makeCleanerChat([]).chat.resume(snapshot, when === 'by an aborted signal' ? { signal: AbortSignal.abort() } : {});
      if (when === 'after start') await new Promise((resolve) => setTimeout(resolve, 0));
      if (when !== 'by an aborted signal') resumed.abort();
      const result = await resumed.result;
      expect(result.messages.slice(2)).toEqual(cut);
      expect(result).toMatchObject({ reason: 'aborted', rounds: 2, lastSpeaker: 'cleaner' });
      expect(result.turns.at(-1)).toEqual({ speaker: 'cleaner', start: 2, end: 4, partial: true });
    }
  });

  it('a chat aborted right after run() ends without starting a turn or a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const a = talker('a', ['A']);
      const run = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 1 }).run('task');
      const events = record(run);
      run.abort();
      expect(await run.result).toMatchObject({ reason: 'aborted', rounds: 0, turns: [] });
      expect(events.map((event) => event.type)).toEqual(['chat.finished']);
      expect(a.model.requests).toHaveLength(0);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('a speaker aborted before it produced a message leaves no turn', async () => {
    const a = talker('a', [{ text: 'late', latencyMs: 5_000 }]);
    const chat = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 5 });
    const run = chat.run('task');
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'model.request') setTimeout(run.abort, 0);
    });
    expect(await run.result).toMatchObject({ reason: 'aborted', rounds: 0, turns: [], messages: [{ role: 'user', content: 'task' }] });
  });

  it('a speaker whose model fails after a tool step keeps that step in the transcript', async () => {
    const a = talker('a', [{ toolCalls: [lookupCall] }, { error: 'model crashed' }], [lookup]);
    const chat = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 5 });
    const result = await chat.run('What is a sprat?').result;
    expect(result.messages.slice(1)).toEqual([lookupReply, lookupResult]);
    expect(result).toMatchObject({ reason: 'error', rounds: 1, error: { message: 'model crashed' }, turns: [{ speaker: 'a', start: 1, end: 3 }] });
  });
});

describe('a nested chat’s turn cut short', () => {
  it('an abort while a nested chat speaks keeps its reply so far: the text of its last turn that said something, partial turns included', async () => {
    const researcher = talker('researcher', ['Octopuses have three hearts.']);
    const critic = talker(
      'critic',
      [
        { text: 'Checking.', toolCalls: [lookupCall] },
        { text: 'late', latencyMs: 5_000 },
      ],
      [lookup],
    );
    const team = createGroupChat({ name: 'research_team', agents: [researcher.agent, critic.agent], speakerSelection: 'round_robin', maxRounds: 2 });
    const planner = talker('planner', ['We need a fact.']);
    const chat = createGroupChat({ agents: [planner.agent, team], speakerSelection: 'round_robin', maxRounds: 3 });
    const run = chat.run('Tell me about octopuses.');
    const events = record(run);
    run.events$.subscribe((event) => {
      const inner = event.type === 'nested.event' ? event.event : undefined;
      if (inner?.type === 'agent.event' && inner.speaker === 'critic' && inner.event.type === 'model.request' && inner.event.step === 2) {
        setTimeout(run.abort, 0);
      }
    });
    const result = await run.result;

    const reply = { role: 'assistant', name: 'research_team', content: 'Checking.' };
    expect(result.messages.slice(1)).toEqual([{ role: 'assistant', name: 'planner', content: 'We need a fact.' }, reply]);
    expect(result.turns).toEqual([
      { speaker: 'planner', start: 1, end: 2, addressedTo: 'research_team' },
      { speaker: 'research_team', start: 2, end: 3, partial: true },
    ]);
    expect(result).toMatchObject({ reason: 'aborted', rounds: 2, lastSpeaker: 'research_team' });
    expect(events.filter((event) => event.type === 'turn.finished').at(-1)).toMatchObject({
      speaker: 'research_team',
      messages: [reply],
      partial: true,
    });
  });

  it('an abort from a handler of the nested chat’s events (its turns taken in one go) ends each chat once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const writer = talker('writer', ['Draft.']);
      const team = createGroupChat({
        name: 'team',
        agents: [writer.agent, humanAgent({ name: 'alice' })],
        speakerSelection: 'round_robin',
        maxRounds: 2,
      });
      const run = createGroupChat({ agents: [team], speakerSelection: 'round_robin', maxRounds: 1 }).run('task');
      run.events$.subscribe((event) => {
        if (event.type === 'nested.event' && event.event.type === 'human.waiting') run.abort();
      });
      expect(await run.result).toMatchObject({ reason: 'aborted', rounds: 1, turns: [{ speaker: 'team', start: 1, end: 2, partial: true }] });
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('a nested chat aborted before any of its turns said something leaves no turn', async () => {
    const slow = talker('slow', [{ text: 'late', latencyMs: 5_000 }]);
    const team = createGroupChat({ name: 'team', agents: [slow.agent], speakerSelection: 'round_robin', maxRounds: 1 });
    const run = createGroupChat({ agents: [team], speakerSelection: 'round_robin', maxRounds: 1 }).run('task');
    run.events$.subscribe((event) => {
      if (event.type === 'nested.event' && event.event.type === 'agent.event' && event.event.event.type === 'model.request') setTimeout(run.abort, 0);
    });
    expect(await run.result).toMatchObject({ reason: 'aborted', rounds: 0, turns: [] });
  });
});
