import {
  type ChatEvent,
  ChatNotWaitingError,
  ChatSnapshotError,
  type ChatWaiting,
  type GroupChatRun,
  type GroupChatSnapshot,
  createGroupChat,
  humanAgent,
} from '@agentchart/actors';
import { readFileSync } from 'node:fs';
import { ApprovalError, RunSnapshotError, defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { talker } from './chatTestKit.js';

/** An outer chat (planner, then a review team) whose team is a writer and a person. */
function reviewTeamChat(plannerTexts = ['We need a release note.', 'Published.']) {
  const writer = talker('writer', ['Draft: v2 is faster.']);
  const team = createGroupChat({
    name: 'review_team',
    agents: [writer.agent, humanAgent({ name: 'alice' })],
    speakerSelection: 'round_robin',
    maxRounds: 2,
  });
  const planner = talker('planner', plannerTexts);
  return createGroupChat({ agents: [planner.agent, team], speakerSelection: 'round_robin', maxRounds: 3 });
}

/** Publishes a note once a person approves (recorded in `executed`). */
function publishTool(executed: string[]) {
  return defineTool({
    name: 'publish',
    description: 'Publishes a note.',
    parameters: z.object({ note: z.string() }),
    approval: 'always',
    execute: ({ note }) => {
      executed.push(note);
      return 'published';
    },
  });
}

/** The same chat in every "process": a desk team whose editor publishes a note once a person approves. */
function publishingChat(executed: string[]) {
  const publish = publishTool(executed);
  const editorModel = scriptedModel((request) =>
    request.messages.at(-1)?.role === 'tool' ? { text: 'Published v2.' } : { toolCalls: [{ id: 'p1', name: 'publish', arguments: { note: 'v2' } }] },
  );
  const editor = createAgent({ name: 'editor', model: editorModel, tools: [publish] });
  const team = createGroupChat({ name: 'desk', agents: [editor], speakerSelection: 'round_robin', maxRounds: 1 });
  return createGroupChat({ agents: [team], speakerSelection: 'round_robin', maxRounds: 1 });
}

/** At the first event that `matches`: resolves with what `run.waiting()` says, then runs `act`. */
function when(run: GroupChatRun, matches: (event: ChatEvent) => boolean, act: () => void) {
  return new Promise<ChatWaiting | undefined>((resolve) => {
    const subscription = run.events$.subscribe((event) => {
      if (!matches(event)) return;
      subscription.unsubscribe();
      resolve(run.waiting());
      act();
    });
  });
}

/** The outer transcript once alice, inside the review team, said "Ship it.". */
const shipped = [
  { role: 'user', content: 'Ship v2.' },
  { role: 'assistant', name: 'planner', content: 'We need a release note.' },
  { role: 'assistant', name: 'review_team', content: 'Ship it.' },
  { role: 'assistant', name: 'planner', content: 'Published.' },
];

/** An agent of the nested chat asks for a tool approval. */
const approvalAskedInside = (event: ChatEvent) =>
  event.type === 'nested.event' && event.event.type === 'agent.event' && event.event.event.type === 'approval.requested';

/** `when` at the first event of `type` of the chat nested in `run`. */
const atNested = (run: GroupChatRun, type: ChatEvent['type'], act: () => void) =>
  when(run, (event) => event.type === 'nested.event' && event.event.type === type, act);

describe('a person inside a nested chat', () => {
  it('the outer handle reports the inner person’s wait and say() reaches them', { timeout: 3_000 }, async () => {
    const run = reviewTeamChat().run('Ship v2.');
    const seen = atNested(run, 'human.waiting', () => {
      expect(() => run.say('No.', { as: 'bob' })).toThrow(ChatNotWaitingError);
      run.say('Ship it.', { as: 'alice' });
    });
    const result = await run.result;

    expect(await seen).toEqual({ kind: 'human', speaker: 'alice', within: ['review_team'] });
    expect(result.messages).toEqual(shipped);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 3 });
    expect(run.waiting()).toBeUndefined();
  });

  it('a chat nested two deep: the wait names both chats, and say() reaches the person', { timeout: 3_000 }, async () => {
    const inner = createGroupChat({ name: 'inner', agents: [humanAgent({ name: 'alice' })], speakerSelection: 'round_robin', maxRounds: 1 });
    const middle = createGroupChat({ name: 'middle', agents: [inner], speakerSelection: 'round_robin', maxRounds: 1 });
    const outer = createGroupChat({ agents: [middle], speakerSelection: 'round_robin', maxRounds: 1 });
    const run = outer.run('Say hello.');
    const seen = when(
      run,
      (event) => event.type === 'nested.event' && event.event.type === 'nested.event' && event.event.event.type === 'human.waiting',
      () => run.say('Hello.'),
    );
    const result = await run.result;
    expect(await seen).toEqual({ kind: 'human', speaker: 'alice', within: ['middle', 'inner'] });
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'middle', content: 'Hello.' });
  });

  it('a manual choice and a tool approval inside a nested chat go through the outer handle', { timeout: 3_000 }, async () => {
    const executed: string[] = [];
    const publish = publishTool(executed);
    const editor = talker('editor', [{ toolCalls: [{ id: 'p1', name: 'publish', arguments: { note: 'v2' } }] }, 'Published v2.'], [publish]);
    const reader = talker('reader', ['Nice.']);
    const team = createGroupChat({ name: 'desk', agents: [editor.agent, reader.agent], speakerSelection: 'manual', maxRounds: 1 });
    const run = createGroupChat({ agents: [team], speakerSelection: 'round_robin', maxRounds: 1 }).run('Publish v2.');

    const choice = atNested(run, 'speaker.choice.requested', () => run.select('editor'));
    const approvalSeen = when(run, approvalAskedInside, () => run.approve('p1'));
    const result = await run.result;

    expect(await choice).toEqual({ kind: 'choice', eligible: ['editor', 'reader'], within: ['desk'] });
    expect(await approvalSeen).toEqual({
      kind: 'approval',
      speaker: 'editor',
      requests: [{ id: 'p1', toolName: 'publish', arguments: { note: 'v2' }, step: 1 }],
      within: ['desk'],
    });
    expect(executed).toEqual(['v2']);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'desk', content: 'Published v2.' });
  });

  it('a wait inside a nested chat is persisted (version 3) and resumed in a fresh chat object, where say() reaches the person', {
    timeout: 3_000,
  }, async () => {
    const first = reviewTeamChat().run('Ship v2.');
    const snapshot = await new Promise<GroupChatSnapshot>((resolve) => void atNested(first, 'human.waiting', () => resolve(first.snapshot())));
    first.abort();
    // Aborted while the team waited for alice, the outer chat keeps the team's reply so far (the writer's draft) as a partial turn.
    const aborted = await first.result;
    expect(aborted).toMatchObject({ reason: 'aborted', rounds: 2, turns: [{ speaker: 'planner' }, { speaker: 'review_team', partial: true }] });
    expect(aborted.messages.at(-1)).toEqual({ role: 'assistant', name: 'review_team', content: 'Draft: v2 is faster.' });
    expect(snapshot).toMatchObject({
      version: 3,
      rounds: 1,
      lastSpeaker: 'planner',
      waiting: {
        kind: 'nested',
        speaker: 'review_team',
        snapshot: { version: 2, rounds: 1, lastSpeaker: 'writer', waiting: { kind: 'human', speaker: 'alice' } },
      },
    });

    const resumed = reviewTeamChat(['Published.']).resume(JSON.parse(JSON.stringify(snapshot)));
    const seen = atNested(resumed, 'human.waiting', () => resumed.say('Ship it.'));
    const result = await resumed.result;
    expect(await seen).toEqual({ kind: 'human', speaker: 'alice', within: ['review_team'] });
    expect(result.messages).toEqual(shipped);
    expect(result).toMatchObject({ chatId: snapshot.chatId, reason: 'max-rounds', rounds: 3 });

    const notAChat = { ...snapshot, waiting: { ...snapshot.waiting, speaker: 'planner' } };
    expect(() => reviewTeamChat().resume(notAChat)).toThrow(ChatSnapshotError);
    const strangerInside = structuredClone(snapshot);
    if (strangerInside.waiting.kind === 'nested') strangerInside.waiting.snapshot.waiting = { kind: 'human', speaker: 'bob' };
    expect(() => reviewTeamChat().resume(strangerInside)).toThrow(ChatSnapshotError);
    expect(() => reviewTeamChat().resume(strangerInside)).toThrow(
      'Inside the nested chat "review_team": The snapshot names "bob", who is not a participant of this chat (participants: writer, alice). ' +
        'Resume it with the chat that persisted it.',
    );
  });

  it('resumes from a version 3 snapshot fixture that waits inside a nested chat', { timeout: 3_000 }, async () => {
    const snapshot: unknown = JSON.parse(readFileSync(new URL('fixtures/reviewTeamChat.snapshot.v3.json', import.meta.url), 'utf8'));
    const run = reviewTeamChat(['Published.']).resume(snapshot);
    void atNested(run, 'human.waiting', () => run.say('Ship it.'));
    const result = await run.result;
    expect(result.messages.slice(2)).toEqual([
      { role: 'assistant', name: 'review_team', content: 'Ship it.' },
      { role: 'assistant', name: 'planner', content: 'Published.' },
    ]);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 3 });
  });

  it('an approval inside a nested chat is persisted; right after resume, waiting(), snapshot() and approve() reach it', {
    timeout: 3_000,
  }, async () => {
    const executed: string[] = [];
    const first = publishingChat(executed).run('Publish v2.');
    const snapshot = await new Promise<GroupChatSnapshot>(
      (resolve) => void when(first, approvalAskedInside, () => queueMicrotask(() => resolve(first.snapshot()))),
    );
    first.abort();
    await first.result;
    const requests = [{ id: 'p1', toolName: 'publish', arguments: { note: 'v2' }, step: 1 }];
    expect(snapshot).toMatchObject({
      version: 3,
      waiting: { kind: 'nested', speaker: 'desk', snapshot: { version: 2, waiting: { kind: 'approval', speaker: 'editor', requests } } },
    });

    const persisted = JSON.parse(JSON.stringify(snapshot)) as GroupChatSnapshot;
    const resumed = publishingChat(executed).resume(persisted);
    // The inner agent does not ask again: the resumed handle knows the wait at once.
    expect(resumed.waiting()).toEqual({ kind: 'approval', speaker: 'editor', requests, within: ['desk'] });
    expect(resumed.snapshot()).toEqual(persisted);
    expect(() => resumed.approve('p2')).toThrow(ApprovalError);
    resumed.approve('p1');
    const result = await resumed.result;
    expect(executed).toEqual(['v2']);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'desk', content: 'Published v2.' });
    expect(result).toMatchObject({ chatId: snapshot.chatId, reason: 'max-rounds', rounds: 1 });

    // The nested chat's agent run is checked by resume(), as a chat's own speaker's is.
    const otherAgents = structuredClone(persisted);
    if (otherAgents.waiting.kind === 'nested' && otherAgents.waiting.snapshot.waiting.kind === 'approval') {
      otherAgents.waiting.snapshot.waiting.run.agent = 'writer';
    }
    expect(() => publishingChat(executed).resume(otherAgents)).toThrow(RunSnapshotError);
  });

  it('right after resume, a person inside a nested chat can be answered before the wait is announced again', { timeout: 3_000 }, async () => {
    const first = reviewTeamChat().run('Ship v2.');
    const snapshot = await new Promise<GroupChatSnapshot>((resolve) => void atNested(first, 'human.waiting', () => resolve(first.snapshot())));
    first.abort();
    await first.result;

    const resumed = reviewTeamChat(['Published.']).resume(snapshot);
    expect(resumed.waiting()).toEqual({ kind: 'human', speaker: 'alice', within: ['review_team'] });
    expect(() => resumed.say('No.', { as: 'bob' })).toThrow(ChatNotWaitingError);
    resumed.say('Ship it.', { as: 'alice' });
    const result = await resumed.result;
    expect(result.messages.slice(2)).toEqual([
      { role: 'assistant', name: 'review_team', content: 'Ship it.' },
      { role: 'assistant', name: 'planner', content: 'Published.' },
    ]);
  });

  it('a chat resumed in a wait inside a nested chat and aborted at once keeps the nested chat’s reply so far, as before it was persisted', {
    timeout: 3_000,
  }, async () => {
    const first = reviewTeamChat().run('Ship v2.');
    const snapshot = await new Promise<GroupChatSnapshot>((resolve) => void atNested(first, 'human.waiting', () => resolve(first.snapshot())));
    first.abort();
    const aborted = await first.result;

    const resumed = reviewTeamChat().resume(snapshot);
    resumed.abort();
    const result = await resumed.result;
    expect(result).toMatchObject({ reason: 'aborted', rounds: 2, turns: aborted.turns, messages: aborted.messages });
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'review_team', content: 'Draft: v2 is faster.' });
  });
});
