import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunStore, defineTool } from '@agentchart/core';
import { createAgent, createGroupChat, resumeChatFromStore, resumeRunFromStore } from '@agentchart/actors';
import { journalMiddleware } from '@agentchart/actors/internal';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testClock } from '../store/runStoreContract.js';

const LEASE = 60_000;
const scratch = mkdtempSync(join(tmpdir(), 'agentchart-recorded-state-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `pay` writes `paid` into the shared state, then (in the process that dies) never returns: the call is left in doubt. */
function payer(dies: boolean) {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays.',
    parameters: z.object({ to: z.string() }),
    execute: ({ to }, ctx) => {
      ctx.state.set('paid', to);
      return dies ? new Promise<string>(() => {}) : `paid ${to}`;
    },
  });
  return createAgent({
    name: 'payer',
    model: scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: 'Bob' } }] },
    ),
    tools: [pay],
  });
}

async function inDoubtRun(name: string) {
  const clock = testClock();
  const path = join(scratch, `${name}.db`);
  const first = await createSqliteRunStore({ path, now: clock.now });
  const second = await createSqliteRunStore({ path, now: clock.now });
  const third = await createSqliteRunStore({ path, now: clock.now });
  const dying = payer(true).run('Pay Bob.', { store: first, runId: 'run-1', owner: 'w1', leaseMs: LEASE });
  for (let attempt = 0; (await first.listCalls('run-1')).length === 0; attempt++) {
    if (attempt > 1000) throw new Error('the call never started');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  clock.advance(LEASE + 1); // its process is gone, the call in doubt
  const durable = await resumeRunFromStore(payer(false), 'run-1', { store: second, owner: 'w2', leaseMs: LEASE });
  const close = async () => {
    dying.abort();
    await first.close();
    await second.close();
    await third.close();
  };
  /** The run's process dies too; a third takes it over. */
  const takeOver = async () => {
    clock.advance(LEASE + 1);
    return resumeRunFromStore(payer(false), 'run-1', { store: third, owner: 'w3', leaseMs: LEASE });
  };
  return { durable, close, takeOver };
}

describe("recordResult of an in-doubt call: the call's shared-state writes", () => {
  it('are applied with the result when given as recordResult(id, result, { state }): the run ends with them', async () => {
    const { durable, close } = await inDoubtRun('recorded');
    try {
      await durable.recordResult('call_1', 'paid Bob (checked by hand)', { state: { paid: 'Bob' } });
      durable.run.approve('call_1');
      const result = await durable.run.result;
      expect(result.toolCalls.map((record) => record.content)).toEqual(['paid Bob (checked by hand)']);
      expect(result.state).toEqual({ paid: 'Bob' });
      await durable.settled;
    } finally {
      await close();
    }
  });

  it('are stored with the result: a crash after recordResult, before the approval, keeps them', async () => {
    const { durable, close, takeOver } = await inDoubtRun('recorded-crash');
    try {
      await durable.recordResult('call_1', 'paid Bob (checked by hand)', { state: { paid: 'Bob' } });
      const again = await takeOver(); // its process is gone before anyone approves: its lease lapses
      expect(again.inDoubt).toEqual([]); // the result is recorded: nothing is in doubt, nothing runs
      const result = await again.run.result;
      expect(result.toolCalls.map((record) => record.content)).toEqual(['paid Bob (checked by hand)']);
      expect(result.state).toEqual({ paid: 'Bob' });
      await again.settled;
      durable.run.abort(); // the fenced copy: its end is refused by the store
    } finally {
      await close();
    }
  });

  it('are not applied by recordResult without them (the journal keeps results, not state writes): the run ends without them', async () => {
    const { durable, close } = await inDoubtRun('skipped');
    try {
      expect(durable.inDoubt.map((entry) => entry.callId)).toEqual(['call_1']);
      await durable.recordResult('call_1', 'paid Bob (checked by hand)');
      durable.run.approve('call_1');
      const result = await durable.run.result;
      expect(result.toolCalls.map((record) => record.content)).toEqual(['paid Bob (checked by hand)']);
      expect(result.state).toEqual({});
      await durable.settled;
    } finally {
      await close();
    }
  });

  it('are kept when the person writes them with run.state before approving: they are in the run’s end state', async () => {
    const { durable, close } = await inDoubtRun('written');
    try {
      await durable.recordResult('call_1', 'paid Bob (checked by hand)');
      durable.run.state.set('paid', 'Bob');
      durable.run.approve('call_1');
      const result = await durable.run.result;
      expect(result.state).toEqual({ paid: 'Bob' });
      await durable.settled;
    } finally {
      await close();
    }
  });

  it('a recorded result that itself looks like a record reaches the model as given', async () => {
    const { durable, close } = await inDoubtRun('look-alike');
    try {
      await durable.recordResult('call_1', { 'agentchart.recorded': null });
      durable.run.approve('call_1');
      const result = await durable.run.result;
      expect(result.toolCalls.map((record) => record.content)).toEqual([JSON.stringify({ 'agentchart.recorded': null })]);
      expect(result.state).toEqual({});
      await durable.settled;
    } finally {
      await close();
    }
  });

  it('a damaged record in the journal (`{"agentchart.recorded": null}`) gives the model a clear message; the tool does not run', async () => {
    let executed = 0;
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ to: z.string() }),
      execute: () => {
        executed++;
        return 'paid';
      },
    });
    // A journal that already has the call, finished, with a forged record as its result.
    const forged = {
      recordCallStarted: async (_lease: unknown, start: { callId: string; toolName: string; argumentsHash: string; idempotencyKey: string }) => ({
        entry: { ...start, status: 'finished', result: { 'agentchart.recorded': null } },
        created: false,
      }),
    } as unknown as RunStore;
    const agent = createAgent({
      name: 'payer',
      model: scriptedModel((request) =>
        request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: 'Bob' } }] },
      ),
      tools: [pay],
      middleware: [journalMiddleware({ store: forged, lease: () => ({}) as never, onLeaseLost: () => {} })],
    });
    const result = await agent.run('Pay Bob.').result;
    expect(executed).toBe(0);
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      expect.stringContaining('recorded by hand, but its record is unreadable (a damaged journal entry), so it was not run again'),
    ]);
  });

  it('in a group chat kept in a store: recordResult(id, result, { state }) writes them into the chat’s shared state', async () => {
    const clock = testClock();
    const path = join(scratch, 'chat.db');
    const first = await createSqliteRunStore({ path, now: clock.now });
    const second = await createSqliteRunStore({ path, now: clock.now });
    const desk = (dies: boolean) => createGroupChat({ name: 'desk', agents: [payer(dies)], speakerSelection: 'round_robin', maxRounds: 1 });
    const dying = desk(true).run('Pay Bob.', { store: first, chatId: 'chat-1', owner: 'w1', leaseMs: LEASE });
    try {
      for (let attempt = 0; (await first.listCalls('chat-1')).length === 0; attempt++) {
        if (attempt > 1000) throw new Error('the call never started');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      clock.advance(LEASE + 1);
      const durable = await resumeChatFromStore(desk(false), 'chat-1', { store: second, owner: 'w2', leaseMs: LEASE });
      expect(durable.chat.waiting()).toMatchObject({ kind: 'approval', speaker: 'payer', requests: [{ id: 'call_1' }] });
      await durable.recordResult('call_1', 'paid Bob (checked by hand)', { state: { paid: 'Bob' } });
      durable.chat.approve('call_1');
      const result = await durable.chat.result;
      expect(result.sharedState).toEqual({ paid: 'Bob' });
      await durable.settled;
    } finally {
      dying.abort();
      await first.close();
      await second.close();
    }
  });
});
