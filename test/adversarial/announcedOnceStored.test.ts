import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunEvent, type RunStore, defineTool } from '@agentchart/core';
import { type ChatEvent, createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const scratch = mkdtempSync(join(tmpdir(), 'agentchart-announced-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The store, and whether a `waiting` state has been committed by now (read synchronously, as a listener would). */
function watchedStore(store: RunStore) {
  let waitingStored = false;
  const watched = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (key === 'writeBatch') {
        return async (...args: Parameters<RunStore['writeBatch']>) => {
          const written = await target.writeBatch(...args);
          if (args[1].state?.status === 'waiting') waitingStored = true;
          return written;
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: watched, waitingStored: () => waitingStored };
}

const pay = defineTool({
  name: 'pay',
  description: 'Pays.',
  parameters: z.object({ to: z.string() }),
  approval: 'always',
  execute: ({ to }) => `paid ${to}`,
});
const payer = () =>
  createAgent({
    name: 'payer',
    model: scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'paid' } : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: 'Bob' } }] },
    ),
    tools: [pay],
  });

describe('approval.requested reaches listeners only once the wait is stored', () => {
  it('an agent run kept in a store', async () => {
    const sqlite = await createSqliteRunStore({ path: join(scratch, 'run.db') });
    try {
      const { store, waitingStored } = watchedStore(sqlite);
      const run = payer().run('Pay Bob.', { store, runId: 'run-1' });
      const seen: { type: string; stored: boolean }[] = [];
      run.events$.subscribe((event) => {
        if (event.type === 'approval.requested') {
          seen.push({ type: event.type, stored: waitingStored() });
          run.approve(event.id);
        }
        if (event.type === 'approval.decided') seen.push({ type: event.type, stored: waitingStored() });
      });
      expect((await run.result).stopReason).toBe('completed');
      expect(seen).toEqual([
        { type: 'approval.requested', stored: true },
        { type: 'approval.decided', stored: true },
      ]);
    } finally {
      await sqlite.close();
    }
  });

  it('a group chat kept in a store', async () => {
    const sqlite = await createSqliteRunStore({ path: join(scratch, 'chat.db') });
    try {
      const { store, waitingStored } = watchedStore(sqlite);
      const chat = createGroupChat({ name: 'desk', agents: [payer()], speakerSelection: 'round_robin', maxRounds: 1 });
      const run = chat.run('Pay Bob.', { store, chatId: 'chat-1' });
      const seen: { type: string; stored: boolean }[] = [];
      run.events$.subscribe((event) => {
        if (event.type !== 'agent.event') return;
        if (event.event.type === 'approval.requested') {
          seen.push({ type: event.event.type, stored: waitingStored() });
          run.approve(event.event.id);
        }
        if (event.event.type === 'approval.decided') seen.push({ type: event.event.type, stored: waitingStored() });
      });
      expect((await run.result).reason).toBe('max-rounds');
      expect(seen).toEqual([
        { type: 'approval.requested', stored: true },
        { type: 'approval.decided', stored: true },
      ]);
    } finally {
      await sqlite.close();
    }
  });

  it('a nested chat inside a chat kept in a store', async () => {
    const sqlite = await createSqliteRunStore({ path: join(scratch, 'nested.db') });
    try {
      const { store, waitingStored } = watchedStore(sqlite);
      const team = createGroupChat({ name: 'team', agents: [payer()], speakerSelection: 'round_robin', maxRounds: 1 });
      const chat = createGroupChat({ name: 'desk', agents: [team], speakerSelection: 'round_robin', maxRounds: 1 });
      const run = chat.run('Pay Bob.', { store, chatId: 'chat-nested' });
      const seen: { type: string; stored: boolean }[] = [];
      /** The agent event inside `nested.event` wrappers, if the event is one. */
      const agentEvent = (event: ChatEvent): RunEvent | undefined =>
        event.type === 'agent.event' ? event.event : event.type === 'nested.event' ? agentEvent(event.event) : undefined;
      run.events$.subscribe((event) => {
        const inner = agentEvent(event);
        if (inner?.type === 'approval.requested') {
          seen.push({ type: inner.type, stored: waitingStored() });
          run.approve(inner.id);
        }
        if (inner?.type === 'approval.decided') seen.push({ type: inner.type, stored: waitingStored() });
      });
      expect((await run.result).reason).toBe('max-rounds');
      expect(seen).toEqual([
        { type: 'approval.requested', stored: true },
        { type: 'approval.decided', stored: true },
      ]);
    } finally {
      await sqlite.close();
    }
  });
});
