import { ConfigurationError, type RunStore } from '@agentchart/core';
import {
  type CustomParticipant,
  type GroupChat,
  type ParticipantTurnOptions,
  createAgent,
  createGroupChat,
  resumeChatFromStore,
} from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testClock } from '../store/runStoreContract.js';
import { writtenCheckpoints } from '../support/writtenCheckpoints.js';

const LEASE = 60_000;
const never = new Promise<never>(() => {});

const dir = mkdtempSync(join(tmpdir(), 'agentchart-custom-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'runs.db');

/**
 * `counter`: a participant of the user's own whose turn counts to three,
 * one step at a time (each step logged: the work a crash must not redo),
 * calling `checkpoint()` after each, then waits for a person's word and
 * replies `counted to 3; <word>`. `dieAfter` makes a "process" hang after
 * that step, as if it died there.
 */
function counter(log: string[], dieAfter?: number, stateSchema?: CustomParticipant['stateSchema']): CustomParticipant {
  const turn = (from: number, options: ParticipantTurnOptions) => {
    let count = from;
    let waiting = false;
    let answer: ((text: string) => void) | undefined;
    const word = new Promise<string>((resolve) => {
      answer = resolve;
    });
    const reply = (async () => {
      while (count < 3) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        count += 1;
        log.push(`step ${count}`);
        options.checkpoint();
        if (count === dieAfter) await never;
      }
      waiting = true;
      options.checkpoint();
      return `counted to ${count}; ${await word}`;
    })();
    return {
      reply,
      waiting: () => (waiting ? { kind: 'human' as const, speaker: 'counter' } : undefined),
      say: (text: string) => {
        waiting = false;
        answer?.(text);
      },
      persist: () => ({ count }),
    };
  };
  return {
    kind: 'custom',
    name: 'counter',
    description: 'Counts to three.',
    takeTurn: (_view, options) => turn(0, options),
    resumeTurn: (state, options) => turn((state as { count: number }).count, options),
    ...(stateSchema === undefined ? {} : { stateSchema }),
  };
}

function chatOf(log: string[], dieAfter?: number, stateSchema?: CustomParticipant['stateSchema']): GroupChat {
  const lead = createAgent({ name: 'lead', model: scriptedModel(async () => ({ text: 'count, please' })) });
  return createGroupChat({
    name: 'tally',
    agents: [lead, counter(log, dieAfter, stateSchema)],
    speakerSelection: 'round_robin',
    maxRounds: 2,
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out waiting for the store');
}

interface StoredParticipant {
  waiting: { kind: string; speaker?: string; waiting?: unknown; state?: unknown };
}

describe('custom participants kept in a store', () => {
  const clock = testClock();
  const opened: RunStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  async function processes() {
    const [first, second] = [await createSqliteRunStore({ path, now: clock.now }), await createSqliteRunStore({ path, now: clock.now })];
    opened.push(first, second);
    return [first, second] as const;
  }
  let next = 0;
  const newId = () => `custom_${++next}_${Math.random().toString(36).slice(2, 8)}`;

  it('a turn that persists its state mid-turn is resumed from that state: the steps done are not done again', async () => {
    const [first, second] = await processes();
    const chatId = newId();
    const deadLog: string[] = [];
    const dying = chatOf(deadLog, 2).run('Count.', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
    await until(async () => {
      const state = (await first.loadRun(chatId))?.state as StoredParticipant | undefined;
      return state?.waiting.kind === 'participant' && (state.waiting.state as { count?: number }).count === 2;
    });
    expect((await first.loadRun(chatId))?.state).toMatchObject({ waiting: { kind: 'participant', speaker: 'counter', state: { count: 2 } } });
    expect((await first.loadRun(chatId))?.status).toBe('running');
    expect(deadLog).toEqual(['step 1', 'step 2']);
    clock.advance(LEASE + 1);

    const log: string[] = [];
    const durable = await resumeChatFromStore(chatOf(log), chatId, { store: second, owner: 'w2', leaseMs: LEASE });
    await until(async () => durable.chat.waiting() !== undefined);
    expect(log).toEqual(['step 3']);
    expect(durable.chat.waiting()).toEqual({ kind: 'human', speaker: 'counter', within: ['counter'] });
    await until(async () => (await second.loadRun(chatId))?.status === 'waiting');
    expect((await second.loadRun(chatId))?.state).toMatchObject({
      waiting: { kind: 'participant', speaker: 'counter', waiting: { kind: 'human', speaker: 'counter' }, state: { count: 3 } },
    });
    durable.chat.say('done');
    const result = await durable.chat.result;
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['lead', 'counter']);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'counter', content: 'counted to 3; done' });
    await durable.settled;
    expect((await second.loadRun(chatId))?.status).toBe('finished');
    dying.abort();
  });

  it('a stored turn state that does not match the participant’s stateSchema is refused with its path, and nothing runs', async () => {
    const [first, second] = await processes();
    const chatId = newId();
    const schema = z.strictObject({ count: z.number().int().min(0).max(3) });
    const dying = chatOf([], 1, schema).run('Count.', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
    await until(async () => ((await first.loadRun(chatId))?.state as StoredParticipant | undefined)?.waiting.kind === 'participant');
    clock.advance(LEASE + 1);
    const lease = await first.acquireLease(chatId, 'editor', LEASE);
    const state = (await first.loadRun(chatId))?.state as StoredParticipant;
    expect(state.waiting.state).toEqual({ count: 1 });
    state.waiting.state = { count: -5 };
    await first.saveState(lease, { status: 'running', state });
    await first.releaseLease(lease);
    clock.advance(LEASE + 1);
    const log: string[] = [];
    const error = await resumeChatFromStore(chatOf(log, undefined, schema), chatId, { store: second, owner: 'w2', leaseMs: LEASE }).catch(
      (caught) => caught,
    );
    expect(error).toMatchObject({ code: 'GROUP_CHAT_SNAPSHOT_INVALID', details: { speaker: 'counter', path: 'waiting.state.count' } });
    expect(error.message).toMatch(/^The persisted turn of custom participant "counter" does not match its stateSchema: at waiting\.state\.count, /);
    expect(log).toEqual([]);
    dying.abort();
  });

  it('inside a nested chat: its checkpoint is nested in the outer chat’s, and it resumes there', async () => {
    const [first, second] = await processes();
    const chatId = newId();
    const nestedOf = (log: string[], dieAfter?: number) => {
      const lead = createAgent({ name: 'lead', model: scriptedModel(async () => ({ text: 'over to the tally' })) });
      return createGroupChat({ name: 'hq', agents: [lead, chatOf(log, dieAfter)], speakerSelection: 'round_robin', maxRounds: 2 });
    };
    const dying = nestedOf([], 2).run('Count.', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
    await until(async () => {
      const waiting = ((await first.loadRun(chatId))?.state as { waiting?: { kind: string; snapshot?: StoredParticipant } } | undefined)?.waiting;
      return waiting?.kind === 'nested' && (waiting.snapshot?.waiting.state as { count?: number } | undefined)?.count === 2;
    });
    expect((await first.loadRun(chatId))?.state).toMatchObject({
      waiting: { kind: 'nested', speaker: 'tally', snapshot: { waiting: { kind: 'participant', speaker: 'counter', state: { count: 2 } } } },
    });
    clock.advance(LEASE + 1);
    const log: string[] = [];
    const chat = nestedOf(log).resume(chatId, { store: second, owner: 'w2', leaseMs: LEASE });
    await until(async () => chat.waiting() !== undefined);
    expect(log).toEqual(['step 3']);
    expect(chat.waiting()).toEqual({ kind: 'human', speaker: 'counter', within: ['tally', 'counter'] });
    chat.say('nested');
    const result = await chat.result;
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['lead', 'tally']);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'tally', content: 'counted to 3; nested' });
    dying.abort();
  });

  it('a turn checkpointed while it waits for a person waits again after a crash, and takes the answer', async () => {
    const [first, second] = await processes();
    const chatId = newId();
    const dying = chatOf([]).run('Count.', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
    await until(async () => (await first.loadRun(chatId))?.status === 'waiting');
    clock.advance(LEASE + 1);
    const log: string[] = [];
    const chat = chatOf(log).resume(chatId, { store: second, owner: 'w2', leaseMs: LEASE });
    await until(async () => chat.waiting() !== undefined);
    expect(chat.waiting()).toEqual({ kind: 'human', speaker: 'counter', within: ['counter'] });
    chat.say('again');
    const result = await chat.result;
    expect(log).toEqual([]);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'counter', content: 'counted to 3; again' });
    dying.abort();
  });

  it('a turn that never checkpointed is taken again from its start after a crash', async () => {
    const [first, second] = await processes();
    const chatId = newId();
    const silent = (log: string[], hang: boolean): CustomParticipant => ({
      kind: 'custom',
      name: 'counter',
      takeTurn: () => ({
        reply: (async () => {
          log.push('work');
          if (hang) await never;
          return 'worked';
        })(),
      }),
    });
    const chat = (log: string[], hang: boolean) =>
      createGroupChat({
        name: 'tally',
        agents: [createAgent({ name: 'lead', model: scriptedModel(async () => ({ text: 'go' })) }), silent(log, hang)],
        speakerSelection: 'round_robin',
        maxRounds: 2,
      });
    const deadLog: string[] = [];
    const dying = chat(deadLog, true).run('Work.', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
    // The turn's beginning is stored by the chat's writer, beside the turn: the same speaker takes it again, from the start.
    const stored = async () => (await first.loadRun(chatId))?.state as { waiting?: { speaker?: string } } | undefined;
    await until(async () => deadLog.length === 1 && (await stored())?.waiting?.speaker === 'counter');
    expect(await stored()).toMatchObject({ waiting: { kind: 'turn', speaker: 'counter' } });
    clock.advance(LEASE + 1);
    const log: string[] = [];
    const result = await chat(log, false).resume(chatId, { store: second, owner: 'w2', leaseMs: LEASE }).result;
    expect(log).toEqual(['work']);
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', name: 'counter', content: 'worked' });
    dying.abort();
  });

  it('checkpoint() without persist() or resumeTurn() is a ConfigurationError that fails the turn, with what to add', async () => {
    const [store] = await processes();
    const careless: CustomParticipant = {
      kind: 'custom',
      name: 'careless',
      takeTurn: (_view, options) => ({
        reply: (async () => {
          options.checkpoint();
          return 'never said';
        })(),
      }),
    };
    const lead = createAgent({ name: 'lead', model: scriptedModel(async () => ({ text: 'go' })) });
    const chat = createGroupChat({ name: 'careless_chat', agents: [lead, careless], speakerSelection: 'round_robin', maxRounds: 2 });
    const result = await chat.run('Go.', { store, chatId: newId(), owner: 'w1', leaseMs: LEASE }).result;
    expect(result.reason).toBe('error');
    expect(result.error).toMatchObject({ name: ConfigurationError.name, code: 'CONFIGURATION_INVALID' });
    expect(result.error?.message).toContain('needs persist() on its turn and resumeTurn() on the participant');
  });

  it('a checkpoint() after the turn ended stores nothing: the chat is not taken back into the turn', async () => {
    const [store] = await processes();
    const late: CustomParticipant = {
      kind: 'custom',
      name: 'late',
      takeTurn: (_view, options) => {
        setTimeout(() => options.checkpoint(), 1);
        return { reply: Promise.resolve('quick'), persist: () => ({ late: true }) };
      },
      resumeTurn: () => ({ reply: Promise.resolve('resumed') }),
    };
    const lead = createAgent({
      name: 'lead',
      model: scriptedModel(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20)); // the late call lands during this turn
        return { text: 'go' };
      }),
    });
    const kinds: string[] = [];
    const save = store.saveState.bind(store);
    store.saveState = (lease, update) => {
      kinds.push(String((update.state as { waiting?: { kind?: string }; format?: string } | undefined)?.waiting?.kind ?? 'end'));
      return save(lease, update);
    };
    // A running chat's checkpoints go with its journal entries, in one transaction (group commit).
    const writeBatch = store.writeBatch.bind(store);
    const written = writtenCheckpoints();
    store.writeBatch = (lease, batch) => {
      if (batch.state !== undefined) kinds.push(String((written(batch.state) as { waiting?: { kind?: string } }).waiting?.kind));
      return writeBatch(lease, batch);
    };
    const chat = createGroupChat({ name: 'late_chat', agents: [late, lead], speakerSelection: 'round_robin', maxRounds: 2 });
    const chatId = newId();
    const result = await chat.run('Go.', { store, chatId, owner: 'w1', leaseMs: LEASE }).result;
    expect(result.messages.slice(1).map((message) => message.content)).toEqual(['quick', 'go']);
    await until(async () => (await store.loadRun(chatId))?.status === 'finished');
    expect(kinds).not.toContain('participant');
  });

  it('without a store, checkpoint() does nothing', async () => {
    const log: string[] = [];
    const chat = chatOf(log);
    const run = chat.run('Count.');
    await until(async () => run.waiting() !== undefined);
    run.say('fine');
    expect((await run.result).messages.at(-1)).toEqual({ role: 'assistant', name: 'counter', content: 'counted to 3; fine' });
    expect(log).toEqual(['step 1', 'step 2', 'step 3']);
  });
});
