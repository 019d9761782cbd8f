import {
  ChatNotWaitingError,
  ChatSnapshotError,
  type CustomParticipant,
  type GroupChatSnapshot,
  type ParticipantTurn,
  createGroupChat,
} from '@agentchart/actors';
import type { Message } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { record, speakers, talker } from './chatTestKit.js';

/** What a booking desk's turn persists: the request it waits on a clerk to confirm. */
interface DeskState {
  request: string;
}

/**
 * A participant of the user's own: a booking desk that books what the last
 * message asks for once a person (the clerk) confirms it. Its turn waits for
 * the clerk's `say`, persists as `{ request }` and is resumed from it.
 * `started` hears of each turn as it starts (with the view it was shown).
 */
function bookingDesk(started: (view: readonly Message[]) => void = () => {}): CustomParticipant {
  const turn = (state: DeskState, signal: AbortSignal): ParticipantTurn => {
    let confirm: (text: string) => void = () => {};
    let confirmed = false;
    const reply = new Promise<string>((resolve, reject) => {
      confirm = (text) => resolve(`Booked ${state.request} (clerk: ${text}).`);
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    return {
      reply,
      waiting: () => (confirmed ? undefined : { kind: 'human', speaker: 'clerk' }),
      say: (text, options) => {
        if (options?.as !== undefined && options.as !== 'clerk') throw new ChatNotWaitingError(`The desk waits for "clerk", not "${options.as}".`);
        confirmed = true;
        confirm(text);
      },
      persist: () => ({ ...state }),
      partial: () => `Holding ${state.request} for the clerk.`,
    };
  };
  return {
    kind: 'custom',
    name: 'desk',
    description: 'Books what was asked for, once the clerk confirms.',
    takeTurn: (view, { signal }) => {
      started(view);
      const last = view.at(-1);
      return turn({ request: typeof last?.content === 'string' ? last.content : '?' }, signal);
    },
    resumeTurn: (state, { signal }) => turn(state as DeskState, signal),
  };
}

/** The same chat in every "process": a planner asks, the desk books. */
function bookingChat(desk: CustomParticipant = bookingDesk()) {
  const planner = talker('planner', ['A room for two on Friday.', 'Thanks.']);
  return createGroupChat({ agents: [planner.agent, desk], speakerSelection: 'round_robin', maxRounds: 3 });
}

/** Starts a booking chat and resolves once the desk's turn has started (its wait can be read then). */
async function runUntilDeskWaits(chat = bookingChat) {
  let deskStarted: () => void = () => {};
  const deskTurn = new Promise<void>((resolve) => {
    deskStarted = resolve;
  });
  const run = chat(bookingDesk(() => queueMicrotask(deskStarted))).run('Plan the weekend.');
  await deskTurn;
  return run;
}

describe('a custom participant', () => {
  it('takes its turn on its view; its reply is a named assistant message of the chat', async () => {
    const views: (readonly Message[])[] = [];
    const echo: CustomParticipant = {
      kind: 'custom',
      name: 'echo',
      takeTurn: (view) => {
        views.push(view);
        return { reply: Promise.resolve(`I heard ${view.length} messages.`) };
      },
    };
    const chat = createGroupChat({ agents: [talker('planner', ['Hello.']).agent, echo], speakerSelection: 'round_robin', maxRounds: 2 });
    const run = chat.run('Say something.');
    const events = record(run);
    const result = await run.result;
    expect(speakers(events)).toEqual(['planner', 'echo']);
    expect(views).toEqual([
      [
        { role: 'user', content: 'Say something.' },
        { role: 'user', name: 'planner', content: 'Hello.' },
      ],
    ]);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'echo', content: 'I heard 2 messages.' });
    expect(result.turns.at(-1)).toEqual({ speaker: 'echo', start: 2, end: 3 });
    expect(result.reason).toBe('max-rounds');
  });

  it('reports the wait inside its turn and takes the clerk’s answer through the chat’s handle', async () => {
    const run = await runUntilDeskWaits();
    expect(run.waiting()).toEqual({ kind: 'human', speaker: 'clerk', within: ['desk'] });
    expect(() => run.say('yes', { as: 'bob' })).toThrow('The desk waits for "clerk", not "bob".');
    run.say('confirmed', { as: 'clerk' });
    const result = await run.result;
    expect(result.messages.at(-2)).toEqual({
      role: 'assistant',
      name: 'desk',
      content: 'Booked A room for two on Friday. (clerk: confirmed).',
    });
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['planner', 'desk', 'planner']);
  });

  it('is persisted mid-chat while its turn waits, and resumed in another process', async () => {
    const run = await runUntilDeskWaits();
    const snapshot = JSON.parse(JSON.stringify(run.snapshot())) as GroupChatSnapshot;
    run.abort();
    expect(snapshot.version).toBe(4);
    expect(snapshot.waiting).toEqual({
      kind: 'participant',
      speaker: 'desk',
      waiting: { kind: 'human', speaker: 'clerk' },
      state: { request: 'A room for two on Friday.' },
    });
    expect(snapshot.turns.map((turn) => turn.speaker)).toEqual(['planner']);

    // Another process: the same chat, created again, resumes the desk's turn where it waited.
    const resumedTurns: unknown[] = [];
    const desk = bookingDesk();
    const resumeTurn = desk.resumeTurn?.bind(desk);
    const chat = bookingChat({
      ...desk,
      resumeTurn: (state, options) => {
        resumedTurns.push(state);
        return (resumeTurn as NonNullable<typeof resumeTurn>)(state, options);
      },
    });
    const resumed = chat.resume(snapshot);
    expect(resumed.waiting()).toEqual({ kind: 'human', speaker: 'clerk', within: ['desk'] });
    expect(resumed.snapshot()).toEqual(snapshot);
    const events = record(resumed);
    resumed.say('ok', { as: 'clerk' });
    const result = await resumed.result;
    expect(resumedTurns).toEqual([{ request: 'A room for two on Friday.' }]);
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['planner', 'desk', 'planner']);
    expect(result.messages.filter((message) => 'name' in message && message.name === 'desk')).toEqual([
      { role: 'assistant', name: 'desk', content: 'Booked A room for two on Friday. (clerk: ok).' },
    ]);
    expect(events.filter((event) => event.type === 'turn.finished').map((event) => event.type === 'turn.finished' && event.speaker)).toEqual([
      'desk',
      'planner',
    ]);
    expect(result.reason).toBe('max-rounds');
  });

  it('keeps what its turn said so far when the chat is aborted during it', async () => {
    const run = await runUntilDeskWaits();
    run.abort();
    const result = await run.result;
    expect(result.reason).toBe('aborted');
    expect(result.turns.at(-1)).toEqual({ speaker: 'desk', start: 2, end: 3, partial: true });
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'desk', content: 'Holding A room for two on Friday. for the clerk.' });
  });

  it('refuses a snapshot it cannot resume, before anything runs', async () => {
    const run = await runUntilDeskWaits();
    const snapshot = run.snapshot();
    run.abort();
    const { resumeTurn: _resume, ...withoutResume } = bookingDesk();
    const withoutResumeChat = bookingChat(withoutResume);
    expect(() => withoutResumeChat.resume(snapshot)).toThrow(ChatSnapshotError);
    expect(() => withoutResumeChat.resume(snapshot)).toThrow(
      'The snapshot waits inside "desk", which is not a custom participant of this chat with resumeTurn. Resume it with the chat that persisted it.',
    );
    const asNested = { ...snapshot, version: 3, waiting: { kind: 'nested', speaker: 'desk', snapshot: {} } };
    expect(() => bookingChat().resume(asNested)).toThrow(
      'The snapshot waits inside "desk" as if it were a nested group chat, but "desk" is a custom participant. Resume it with the chat that persisted it.',
    );
  });

  it('fails its turn with a clear error when its reply is not text', async () => {
    const busy: CustomParticipant = {
      kind: 'custom',
      name: 'busy',
      takeTurn: () => ({ reply: Promise.resolve(42 as unknown as string), waiting: () => undefined }),
    };
    const chat = createGroupChat({ agents: [busy], speakerSelection: 'round_robin', maxRounds: 1 });
    const result = await chat.run('Go.').result;
    expect(result.reason).toBe('error');
    expect(result.error?.message).toBe('Custom participant "busy": its turn\'s reply must resolve to a string (got number).');
  });
});

describe('a custom participant inside a nested chat', () => {
  it('is persisted at depth (the outer snapshot holds the nested chat’s version 4 snapshot) and resumed', async () => {
    let deskStarted: () => void = () => {};
    const deskTurn = new Promise<void>((resolve) => {
      deskStarted = resolve;
    });
    const outerChat = (desk: CustomParticipant) => {
      const team = createGroupChat({ name: 'booking_team', agents: [desk], speakerSelection: 'round_robin', maxRounds: 1 });
      return createGroupChat({ agents: [talker('planner', ['A table for four.']).agent, team], speakerSelection: 'round_robin', maxRounds: 2 });
    };
    const run = outerChat(bookingDesk(() => queueMicrotask(deskStarted))).run('Plan dinner.');
    await deskTurn;
    expect(run.waiting()).toEqual({ kind: 'human', speaker: 'clerk', within: ['booking_team', 'desk'] });
    const snapshot = JSON.parse(JSON.stringify(run.snapshot())) as GroupChatSnapshot;
    run.abort();
    expect(snapshot.version).toBe(3);
    expect(snapshot.waiting.kind === 'nested' && snapshot.waiting.snapshot.version).toBe(4);
    expect(snapshot.waiting.kind === 'nested' && snapshot.waiting.snapshot.waiting).toEqual({
      kind: 'participant',
      speaker: 'desk',
      waiting: { kind: 'human', speaker: 'clerk' },
      state: { request: 'A table for four.' },
    });

    const resumed = outerChat(bookingDesk()).resume(snapshot);
    expect(resumed.waiting()).toEqual({ kind: 'human', speaker: 'clerk', within: ['booking_team', 'desk'] });
    resumed.say('fine', { as: 'clerk' });
    const result = await resumed.result;
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'booking_team', content: 'Booked A table for four. (clerk: fine).' });
    expect(result.reason).toBe('max-rounds');
  });
});
