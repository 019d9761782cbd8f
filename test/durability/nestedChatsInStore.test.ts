import type { RunStore } from '@agentchart/core';
import { type GroupChat, type GroupChatResult, createAgent, createGroupChat, resumeChatFromStore } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testClock } from '../store/runStoreContract.js';
import { journaledTool } from './journaledTool.js';
import { writtenCheckpoints } from '../support/writtenCheckpoints.js';

const LEASE = 60_000;
const KEY = 'a-secret-of-at-least-16-bytes';
const never = new Promise<never>(() => {});

const dir = mkdtempSync(join(tmpdir(), 'agentchart-nested-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, 'runs.db');
/** The uninterrupted runs' own database (another connection to the first one would wait on it). */
const referencePath = join(dir, 'reference.db');

/** Where a "process" of these tests dies: the inner tool after its effect, the inner agent's reply to the tool's result, the inner checker's model call. */
type Hang = 'pay' | 'clerk-reply' | 'checker';

interface World {
  /** The effects of `pay`, as the outside world sees them. */
  ledger: string[];
}

/**
 * `office`: `lead` (says "go"), then the nested chat `team` — `clerk` (calls
 * `pay` for Ann, journaled, not idempotent, then says "paid Ann") and
 * `checker` (says "checked") — then `lead` again. Every model answers from
 * the request alone, so an uninterrupted run and a resumed one say the same.
 */
function officeOf(world: World, hang?: Hang, keys: { outer?: string; inner?: string } = {}, depth: 1 | 2 = 1): GroupChat {
  const pay = journaledTool('pay', {}, async (to, ctx) => {
    world.ledger.push(`pay ${to} key=${ctx.idempotencyKey}`);
    if (hang === 'pay') await never;
  });
  const clerk = createAgent({
    name: 'clerk',
    tools: [pay],
    model: scriptedModel(async (request) => {
      if (request.messages.at(-1)?.role !== 'tool') return { toolCalls: [{ id: 'p', name: 'pay', arguments: { to: 'Ann' } }] };
      if (hang === 'clerk-reply') await never;
      return { text: 'paid Ann' };
    }),
  });
  const checker = createAgent({
    name: 'checker',
    model: scriptedModel(async () => {
      if (hang === 'checker') await never;
      return { text: 'checked' };
    }),
  });
  const team = createGroupChat({
    name: 'team',
    agents: [clerk, checker],
    speakerSelection: 'round_robin',
    maxRounds: 2,
    ...(keys.inner === undefined ? {} : { snapshotKey: keys.inner }),
  });
  const lead = createAgent({ name: 'lead', model: scriptedModel(async () => ({ text: 'go' })) });
  // Depth 2: the team is the one participant of `dept`, itself a participant of the office.
  const inner = depth === 1 ? team : createGroupChat({ name: 'dept', agents: [team], speakerSelection: 'round_robin', maxRounds: 1 });
  return createGroupChat({
    name: 'office',
    agents: [lead, inner],
    speakerSelection: 'round_robin',
    maxRounds: 3,
    ...(keys.outer === undefined ? {} : { snapshotKey: keys.outer }),
  });
}

interface StoredNested {
  waiting: { kind: string; speaker?: string; snapshot?: { waiting: { kind: string; speaker?: string; run?: { machine: { value: string } } } } };
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out waiting for the store');
}

const transcript = (result: GroupChatResult) => ({ messages: result.messages, turns: result.turns, reason: result.reason });

describe('nested chats kept in a store', () => {
  const clock = testClock();
  const opened: RunStore[] = [];
  const open = async (at = path) => {
    const store = await createSqliteRunStore({ path: at, now: clock.now });
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  let next = 0;
  const newId = () => `nested_${++next}_${Math.random().toString(36).slice(2, 8)}`;

  /** The transcript of an uninterrupted run kept in the store. */
  async function uninterrupted(depth: 1 | 2 = 1): Promise<ReturnType<typeof transcript>> {
    const store = await open(referencePath);
    const world = { ledger: [] as string[] };
    const result = await officeOf(world, undefined, {}, depth).run('Pay Ann.', { store, chatId: newId(), owner: 'w0', leaseMs: LEASE }).result;
    expect(world.ledger).toHaveLength(1);
    return transcript(result);
  }

  /** Starts the chat in one "process" that dies at `hang`, once the store shows `reached`; returns the dead run and the chat id. */
  async function dieAt(
    hang: Hang,
    reached: (state: StoredNested, calls: string[]) => boolean,
    keys?: { outer?: string; inner?: string },
    depth: 1 | 2 = 1,
  ) {
    const store = await open();
    const chatId = newId();
    const dead = { ledger: [] as string[] };
    const run = officeOf(dead, hang, keys, depth).run('Pay Ann.', { store, chatId, owner: 'w1', leaseMs: LEASE });
    await until(async () => {
      const stored = await store.loadRun(chatId);
      const calls = (await store.listCalls(chatId)).map((call) => call.status);
      return stored?.state !== undefined && reached(stored.state as StoredNested, calls);
    });
    clock.advance(LEASE + 1);
    return { run, chatId, dead, store };
  }

  it('checkpoints inside the nested turn and journals its agent’s calls under the outer chat as <turn run id>/<call id>', async () => {
    const store = await open();
    const chatId = newId();
    const world = { ledger: [] as string[] };
    const seen: string[] = [];
    // A running chat's checkpoints go with its journal entries, in one transaction (group commit).
    const writeBatch = store.writeBatch.bind(store);
    const written = writtenCheckpoints();
    store.writeBatch = (lease, batch) => {
      const waiting = ((batch.state === undefined ? undefined : written(batch.state)) as StoredNested | undefined)?.waiting;
      if (waiting?.kind === 'nested') seen.push(`${waiting.snapshot?.waiting.kind}:${waiting.snapshot?.waiting.speaker ?? ''}`);
      return writeBatch(lease, batch);
    };
    const run = officeOf(world).run('Pay Ann.', { store, chatId, owner: 'w1', leaseMs: LEASE });
    const result = await run.result;
    // A tool's result is stored with the chat's next write at the latest: here, its end.
    await until(async () => (await store.loadRun(chatId))?.status === 'finished');
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['lead', 'team', 'lead']);
    expect(result.messages.find((message) => message.role === 'assistant' && message.name === 'team')?.content).toBe('checked');
    const calls = await store.listCalls(chatId);
    expect(calls.map((call) => ({ status: call.status, toolName: call.toolName }))).toEqual([{ status: 'finished', toolName: 'pay' }]);
    expect(calls[0]?.callId).toMatch(/^run_[^/]+\/p$/);
    expect(world.ledger).toEqual([`pay Ann key=${calls[0]?.callId.replace('/', ':')}`]);
    // Checkpoints inside the nested turn were written as the outer chat's (consecutive ones may collapse into the newest,
    // but the clerk's batch is stored before its call is journaled).
    expect(seen).toContain('turn:clerk');
    expect(seen.every((at) => /^(selecting:|turn:clerk|turn:checker)$/.test(at))).toBe(true);
  });

  it('killed while the inner agent waits for the model after its tool ran: resumed, the tool is not run again and the transcript is an uninterrupted run’s', async () => {
    const expected = await uninterrupted();
    const {
      run: dying,
      chatId,
      dead,
    } = await dieAt(
      'clerk-reply',
      (state, calls) =>
        state.waiting.kind === 'nested' && state.waiting.snapshot?.waiting.run?.machine.value === 'stepDone' && calls.join() === 'finished',
    );
    expect(dead.ledger).toHaveLength(1);
    const world = { ledger: [] as string[] };
    const durable = await resumeChatFromStore(officeOf(world), chatId, { store: await open(), owner: 'w2', leaseMs: LEASE });
    expect(durable.inDoubt).toEqual([]);
    const result = await durable.chat.result;
    expect(transcript(result)).toEqual(expected);
    expect(world.ledger).toEqual([]); // recorded before the crash: never again
    await durable.settled;
    dying.abort();
  });

  it('killed during the nested chat’s second speaker: resumed from the nested chat’s checkpoint, earlier nested turns kept, nothing re-run', async () => {
    const expected = await uninterrupted();
    const { run: dying, chatId } = await dieAt(
      'checker',
      (state) =>
        state.waiting.kind === 'nested' && state.waiting.snapshot?.waiting.kind === 'turn' && state.waiting.snapshot.waiting.speaker === 'checker',
    );
    const world = { ledger: [] as string[] };
    const chat = officeOf(world).resume(chatId, { store: await open(), owner: 'w2', leaseMs: LEASE });
    expect(transcript(await chat.result)).toEqual(expected);
    expect(world.ledger).toEqual([]);
    dying.abort();
  });

  it('an in-doubt call inside the nested turn is an approval decision within the nested chat; recorded by hand, it never runs again', async () => {
    const expected = await uninterrupted();
    const { run: dying, chatId, dead } = await dieAt('pay', (_state, calls) => calls.join() === 'started');
    expect(dead.ledger).toHaveLength(1);
    const world = { ledger: [] as string[] };
    const store = await open();
    const durable = await resumeChatFromStore(officeOf(world), chatId, { store, owner: 'w2', leaseMs: LEASE });
    expect(durable.inDoubt.map((entry) => ({ callId: entry.callId, toolName: entry.toolName, status: entry.status }))).toEqual([
      { callId: 'p', toolName: 'pay', status: 'started' },
    ]);
    expect(durable.chat.waiting()).toEqual({
      kind: 'approval',
      speaker: 'clerk',
      requests: [{ id: 'p', toolName: 'pay', arguments: { to: 'Ann' }, step: 1 }],
      within: ['team'],
    });
    await durable.recordResult('p', 'pay Ann done'); // a person saw the effect in the ledger
    durable.chat.approve('p');
    const result = await durable.chat.result;
    expect(transcript(result)).toEqual(expected);
    expect(world.ledger).toEqual([]);
    expect((await store.listCalls(chatId)).map((call) => call.status)).toEqual(['finished']);
    await durable.settled;
    dying.abort();
  });

  it('two levels deep (a nested chat in a nested chat): an in-doubt call surfaces within both, and the run ends as an uninterrupted one', async () => {
    const expected = await uninterrupted(2);
    const { run: dying, chatId } = await dieAt('pay', (_state, calls) => calls.join() === 'started', undefined, 2);
    const store = await open();
    const state = (await store.loadRun(chatId))?.state as { waiting: { kind: string; speaker: string; snapshot: StoredNested } };
    expect(state.waiting).toMatchObject({ kind: 'nested', speaker: 'dept', snapshot: { waiting: { kind: 'nested', speaker: 'team' } } });
    const world = { ledger: [] as string[] };
    const durable = await resumeChatFromStore(officeOf(world, undefined, {}, 2), chatId, { store, owner: 'w2', leaseMs: LEASE });
    expect(durable.chat.waiting()).toMatchObject({ kind: 'approval', speaker: 'clerk', requests: [{ id: 'p' }], within: ['dept', 'team'] });
    await durable.recordResult('p', 'pay Ann done');
    durable.chat.approve('p');
    expect(transcript(await durable.chat.result)).toEqual(expected);
    expect(world.ledger).toEqual([]);
    dying.abort();
  });

  for (const keys of [{}, { outer: KEY }, { inner: KEY }, { outer: KEY, inner: `${KEY}-inner` }]) {
    it(`an in-doubt call approved to run again runs once more, with the same idempotency key (keys: ${Object.keys(keys).join(', ') || 'none'})`, async () => {
      const { run: dying, chatId, dead } = await dieAt('pay', (_state, calls) => calls.join() === 'started', keys);
      const world = { ledger: [] as string[] };
      // The nested part is edited (the call made an approval request) and signed again with the nested chat's key.
      const durable = await resumeChatFromStore(officeOf(world, undefined, keys), chatId, { store: await open(), owner: 'w2', leaseMs: LEASE });
      expect(durable.chat.waiting()).toMatchObject({ kind: 'approval', requests: [{ id: 'p' }], within: ['team'] });
      durable.chat.approve('p');
      const result = await durable.chat.result;
      expect(result.turns.map((turn) => turn.speaker)).toEqual(['lead', 'team', 'lead']);
      expect(world.ledger).toEqual(dead.ledger); // the same line: the same key
      dying.abort();
    });
  }

  it('an edited inner agent run inside the nested part is refused with RunSnapshotError (its path) and runs nothing', async () => {
    const {
      run: dying,
      chatId,
      store,
    } = await dieAt('clerk-reply', (state, calls) => state.waiting.kind === 'nested' && calls.join() === 'finished');
    const lease = await store.acquireLease(chatId, 'editor', LEASE);
    const state = (await store.loadRun(chatId))?.state as {
      waiting: { snapshot: { waiting: { run: { machine: { value: string; context: { batch: { calls: unknown[] } } } } } } };
    };
    const inner = state.waiting.snapshot.waiting.run.machine;
    expect(inner.value).toBe('stepDone');
    // A call slipped into the inner agent's run: it would pay Mallory without the model asking.
    inner.context.batch.calls.push({ id: 'evil', name: 'pay', arguments: { to: 'Mallory' } });
    await store.saveState(lease, { status: 'running', state });
    await store.releaseLease(lease);
    clock.advance(LEASE + 1);
    const world = { ledger: [] as string[] };
    const error = await resumeChatFromStore(officeOf(world), chatId, { store: await open(), owner: 'w2', leaseMs: LEASE }).catch((caught) => caught);
    expect(error).toMatchObject({ name: 'RunSnapshotError', code: 'RUN_SNAPSHOT_INVALID' });
    expect(error.details.path).toBe('machine.context.batch');
    expect(world.ledger).toEqual([]);
    dying.abort();
  });

  for (const keys of [{ outer: KEY }, { inner: KEY }]) {
    it(`signed (${keys.outer === undefined ? 'the nested chat’s key' : 'the outer chat’s key'}): an edited nested part is refused with SNAPSHOT_TAMPERED and runs nothing`, async () => {
      const {
        run: dying,
        chatId,
        store,
      } = await dieAt('checker', (state) => state.waiting.kind === 'nested' && state.waiting.snapshot?.waiting.speaker === 'checker', keys);
      const lease = await store.acquireLease(chatId, 'editor', LEASE);
      const state = (await store.loadRun(chatId))?.state as {
        waiting: { snapshot: { messages: { role: string; content: string }[]; signature?: string } };
      };
      if (keys.inner !== undefined) expect(state.waiting.snapshot.signature).toMatch(/^hmac-sha256:/);
      const reply = state.waiting.snapshot.messages.find((message) => message.role === 'assistant' && message.content === 'paid Ann');
      if (reply === undefined) throw new Error('no reply of clerk in the nested checkpoint');
      reply.content = 'paid Mallory';
      await store.saveState(lease, { status: 'running', state });
      await store.releaseLease(lease);
      clock.advance(LEASE + 1);
      const world = { ledger: [] as string[] };
      await expect(
        resumeChatFromStore(officeOf(world, undefined, keys), chatId, { store: await open(), owner: 'w2', leaseMs: LEASE }),
      ).rejects.toMatchObject({
        code: 'SNAPSHOT_TAMPERED',
      });
      expect(world.ledger).toEqual([]);
      dying.abort();
    });
  }
});

describe('what a store still refuses', () => {
  it('a group chat written by hand as a participant: ConfigurationError, before anything runs', async () => {
    const store = await createSqliteRunStore({ path: join(dir, 'refused.db') });
    try {
      const byHand = {
        kind: 'group-chat' as const,
        name: 'by_hand',
        run: () => {
          throw new Error('not run');
        },
      };
      const lead = createAgent({ name: 'lead', model: scriptedModel(async () => ({ text: 'go' })) });
      const chat = createGroupChat({ name: 'mixed', agents: [lead, byHand as never], speakerSelection: 'round_robin', maxRounds: 2 });
      const error = await chat.run('Go.', { store, chatId: 'refused-1' }).result.catch((caught) => caught);
      expect(error).toMatchObject({ code: 'CONFIGURATION_INVALID' });
      expect(error.message).toBe(
        'Chat "mixed" cannot be kept in a store: "by_hand": it is a group chat written by hand (not made by createGroupChat), ' +
          'whose turns cannot checkpoint into the store nor journal their tools there. Run it without a store (and persist its waits with run.snapshot()), ' +
          'or make the nested chat with createGroupChat(...).',
      );
      expect(await store.loadRun('refused-1')).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
