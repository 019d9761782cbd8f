import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  ChatNotWaitingError,
  ChatSnapshotError,
  type GroupChatResult,
  type GroupChatSnapshot,
  createGroupChat,
  humanAgent,
} from '@agentchart/actors';
import { describe, expect, it } from 'vitest';
import { record, talker } from './chatTestKit.js';
import { makeReviewChat } from './fixtures/humanChat.js';

const here = import.meta.dirname;

/** Resolves with the first snapshot taken while the chat waits for alice. */
function snapshotWhenWaiting(chat: ReturnType<typeof makeReviewChat>): Promise<{ snapshot: GroupChatSnapshot; abort: () => void }> {
  const run = chat.run('Write the v2 release note.');
  return new Promise((resolve) => {
    run.events$.subscribe((event) => {
      if (event.type === 'human.waiting') resolve({ snapshot: run.snapshot(), abort: run.abort });
    });
  });
}

describe('a human participant', () => {
  it('takes turns through the handle: say() gives the reply when the chat waits for them', async () => {
    const chat = makeReviewChat();
    const run = chat.run('Write the v2 release note.');
    expect(() => run.say('too early')).toThrow(ChatNotWaitingError);
    const events = record(run);
    run.events$.subscribe((event) => {
      if (event.type === 'human.waiting') {
        expect(run.waiting()).toEqual({ kind: 'human', speaker: 'alice' });
        expect(() => run.say('as someone else', { as: 'bob' })).toThrow(ChatNotWaitingError);
        run.say('Mention the new API.');
      }
    });
    const result = await run.result;
    expect(result.messages).toEqual([
      { role: 'user', content: 'Write the v2 release note.' },
      { role: 'assistant', name: 'writer', content: 'Draft: v2 is faster.' },
      { role: 'user', name: 'alice', content: 'Mention the new API.' },
      { role: 'assistant', name: 'writer', content: 'Revised after: Mention the new API.' },
    ]);
    expect(events.filter((event) => event.type === 'human.waiting' || event.type === 'human.said').map((event) => event.type)).toEqual([
      'human.waiting',
      'human.said',
    ]);
    expect(() => run.snapshot()).toThrow(ChatNotWaitingError);
  });

  it('is persisted while the chat waits and resumed in another process', async () => {
    const { snapshot, abort } = await snapshotWhenWaiting(makeReviewChat());
    abort();
    expect(snapshot).toMatchObject({ version: 2, rounds: 1, lastSpeaker: 'writer', waiting: { kind: 'human', speaker: 'alice' } });
    const file = join(mkdtempSync(join(tmpdir(), 'agentchart-chat-')), 'chat.json');
    writeFileSync(file, JSON.stringify(snapshot));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(here, 'fixtures/resumeReviewChat.ts'), file], {
      cwd: join(here, '../..'),
    });
    const result = JSON.parse(stdout) as GroupChatResult;
    expect(result.chatId).toBe(snapshot.chatId);
    expect(result.messages.slice(2)).toEqual([
      { role: 'user', name: 'alice', content: 'Mention the new API.' },
      { role: 'assistant', name: 'writer', content: 'Revised after: Mention the new API.' },
    ]);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 3, sharedState: { reviewRound: 1 } });
  });

  it('resumes from a version 1 snapshot fixture', async () => {
    const snapshot = JSON.parse(readFileSync(join(here, 'fixtures/reviewChat.snapshot.v1.json'), 'utf8')) as GroupChatSnapshot;
    const run = makeReviewChat().resume(snapshot);
    // Persisted again at once, it is written in the current version.
    expect(run.snapshot()).toEqual({ ...snapshot, version: 2 });
    run.events$.subscribe((event) => {
      if (event.type === 'human.waiting') run.say('Shorter, please.');
    });
    const result = await run.result;
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'writer', content: 'Revised after: Shorter, please.' });
    expect(result.rounds).toBe(3);
  });

  it('refuses to resume what is not a snapshot of this chat', () => {
    const snapshot = JSON.parse(readFileSync(join(here, 'fixtures/reviewChat.snapshot.v1.json'), 'utf8')) as GroupChatSnapshot;
    const chat = makeReviewChat();
    expect(() => chat.resume({ ...snapshot, messages: 'nope' })).toThrow(ChatSnapshotError);
    expect(() => chat.resume({ ...snapshot, rounds: 'three' })).toThrow(
      'This is not a persisted group chat: at rounds, invalid input: expected number, received string. Pass what run.snapshot() returned.',
    );
    expect(() => chat.resume('a chat')).toThrow(
      'This is not a persisted group chat: invalid input: expected object, received string. Pass what run.snapshot() returned.',
    );
    expect(() => chat.resume({ ...snapshot, version: 5 })).toThrow('Group chat snapshot version 5 is not supported');
    // A later version's snapshot is refused for its version, whatever else it holds.
    expect(() => chat.resume({ ...snapshot, version: 5, waiting: { kind: 'later' } })).toThrow(
      'Group chat snapshot version 5 is not supported; this version of agentchart reads versions 1, 2, 3, 4. ' +
        'Resume it with the agentchart version that persisted it, or a later one.',
    );
    expect(() => chat.resume({ ...snapshot, waiting: { kind: 'human', speaker: 'bob' } })).toThrow(
      'The snapshot names "bob", who is not a participant of this chat (participants: writer, alice). Resume it with the chat that persisted it.',
    );
  });

  it('a chat waiting for a person ends when aborted', async () => {
    const chat = createGroupChat({
      agents: [humanAgent({ name: 'alice' }), talker('a', ['A']).agent],
      speakerSelection: 'round_robin',
      maxRounds: 3,
    });
    const run = chat.run('task');
    run.events$.subscribe((event) => {
      if (event.type === 'human.waiting') run.abort();
    });
    expect(await run.result).toMatchObject({ reason: 'aborted', rounds: 0 });
  });
});
