import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyTool, defineTool } from '@agentchart/core';
import {
  type ChatEvent,
  type GroupChatRun,
  type ToolSource,
  createAgent,
  createGroupChat,
  resumeChatFromStore,
  resumePending,
} from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testClock } from '../store/runStoreContract.js';

const scratch = mkdtempSync(join(tmpdir(), 'agentchart-resume-decisions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A tool source whose list takes `delayMs` to load (an MCP server connecting). */
function slowSource(delayMs: number): ToolSource {
  const lookup = defineTool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: () => 'found' });
  return {
    name: 'slow',
    loadTools: () => new Promise<readonly AnyTool[]>((resolve) => setTimeout(() => resolve([lookup]), delayMs)),
    onToolsChanged: () => () => {},
    close: async () => {},
  };
}

/** A payer whose `pay` waits for approval (every payment in `ledger`), and a researcher whose tools load slowly. */
function team(ledger: string[], withSources = true) {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays.',
    parameters: z.object({ to: z.string() }),
    approval: 'always',
    execute: ({ to }) => {
      ledger.push(`pay ${to}`);
      return `paid ${to}`;
    },
  });
  return createGroupChat({
    name: 'team',
    agents: [
      createAgent({
        name: 'payer',
        model: scriptedModel((request) =>
          request.messages.at(-1)?.role === 'tool' ? { text: 'paid' } : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to: 'Bob' } }] },
        ),
        tools: [pay],
      }),
      createAgent({ name: 'researcher', model: scriptedModel(() => ({ text: 'noted' })), ...(withSources ? { toolSources: [slowSource(30)] } : {}) }),
    ],
    speakerSelection: 'round_robin',
    maxRounds: 2,
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms))]);

async function waitingFor(run: GroupChatRun) {
  while (run.waiting() === undefined) await new Promise((resolve) => setTimeout(resolve, 2));
}

describe('decisions given right after a resume (agents with tool sources)', () => {
  it('chat.resume(snapshot) then approve at once: delivered once the chat has started, the call runs once; a repeat is refused', async () => {
    const ledger: string[] = [];
    const first = team(ledger).run('Pay Bob.');
    await waitingFor(first);
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    first.abort();
    const resumed = team(ledger).resume(snapshot);
    resumed.approve('call_1');
    expect(() => resumed.approve('call_1')).toThrow(expect.objectContaining({ code: 'APPROVAL_NOT_PENDING' }));
    const result = await within(resumed.result, 5_000);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 2 });
    expect(ledger).toEqual(['pay Bob']);
  });

  it('resumeChatFromStore and resumePending resolve before the chat’s first event: an observer attached then sees chat.started, and an approval given then is delivered', async () => {
    for (const [form, withSources] of [
      ['resumeChatFromStore', true],
      ['resumeChatFromStore', false],
      ['resumePending', true],
      ['resumePending', false],
    ] as const) {
      const clock = testClock();
      const store = await createSqliteRunStore({ path: join(scratch, `${form}-${withSources}.db`), now: clock.now });
      try {
        const ledger: string[] = [];
        const first = team(ledger, withSources).run('Pay Bob.', { store, chatId: `chat-${form}` });
        await waitingFor(first);
        while ((await store.loadRun(`chat-${form}`))?.status !== 'waiting') await new Promise((resolve) => setTimeout(resolve, 2));
        clock.advance(60_000); // its process is gone
        const resumed =
          form === 'resumeChatFromStore'
            ? (await resumeChatFromStore(team(ledger, withSources), `chat-${form}`, { store, owner: 'w2' })).chat
            : (await resumePending({ store, owner: 'w2', chats: [team(ledger, withSources)] })).chats[0]?.chat;
        const events: ChatEvent['type'][] = [];
        resumed?.events$.subscribe((event) => events.push(event.type));
        resumed?.approve('call_1');
        const result = await within(resumed?.result ?? Promise.reject(new Error('not resumed')), 5_000);
        expect(result.reason).toBe('max-rounds');
        expect({ form, withSources, first: events[0] }).toEqual({ form, withSources, first: 'chat.started' });
        expect(ledger).toEqual(['pay Bob']);
      } finally {
        await store.close();
      }
    }
  });
});
