import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnyTool, type RunEvent, defineTool } from '@agentchart/core';
import { type GroupChatRun, type ToolSource, createAgent, createGroupChat, resumeChatFromStore, resumePending } from '@agentchart/actors';
import { humanAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testClock } from '../store/runStoreContract.js';

const scratch = mkdtempSync(join(tmpdir(), 'agentchart-in-process-decisions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A tool source like an MCP server's: its list arrives after a few macrotasks (a connection and a `tools/list`). */
function mcpLikeSource(): ToolSource {
  const lookup = defineTool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: () => 'found' });
  return {
    name: 'mcp-like',
    loadTools: async () => {
      for (let hop = 0; hop < 5; hop++) await new Promise((resolve) => setImmediate(resolve));
      return [lookup] as readonly AnyTool[];
    },
    onToolsChanged: () => () => {},
    close: async () => {},
  };
}

/**
 * `payer` pays Bob 10, then `payer_b` pays Mallory 50 000: both `pay` calls
 * wait for approval and both have the model id `call_1`. Every payment
 * lands in `ledger`.
 */
function twoPayers(ledger: string[], withSources = false) {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays.',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    approval: 'always',
    execute: ({ to, amount }) => {
      ledger.push(`${to} ${amount}`);
      return `paid ${to} ${amount}`;
    },
  });
  const payer = (name: string, to: string, amount: number) =>
    createAgent({
      name,
      model: scriptedModel((request) =>
        request.messages.at(-1)?.role === 'tool'
          ? { text: `${name} done` }
          : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to, amount } }] },
      ),
      tools: [pay],
      ...(withSources ? { toolSources: [mcpLikeSource()] } : {}),
    });
  const agents = [payer('payer', 'Bob', 10), payer('payer_b', 'Mallory', 50_000)];
  const chat = createGroupChat({ name: 'two-payers', agents, speakerSelection: 'round_robin', maxRounds: 2 });
  /** Loads every agent's tool sources (what `chat.resume(snapshot)` needs of the agent whose turn it resumes). */
  const loadTools = async () => void (await Promise.all(agents.map((agent) => agent.loadTools())));
  return Object.assign(chat, { loadTools });
}

async function waitingFor(run: GroupChatRun, speaker: string) {
  for (;;) {
    const now = run.waiting();
    if (now?.kind === 'approval' && now.speaker === speaker) return now;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const notPending = expect.objectContaining({ code: 'APPROVAL_NOT_PENDING' });

describe("in-process decisions never approve another agent's call with the same model call id", () => {
  it("approving payer's call_1 twice in a row: the second is refused, payer_b's call_1 still waits", async () => {
    const ledger: string[] = [];
    const run = twoPayers(ledger).run('Pay.');
    await waitingFor(run, 'payer');
    run.approve('call_1');
    expect(() => run.approve('call_1')).toThrow(notPending);
    expect(() => run.reject('call_1')).toThrow(notPending);
    const second = await waitingFor(run, 'payer_b');
    expect(second.requests).toMatchObject([{ id: 'call_1', arguments: { to: 'Mallory', amount: 50_000 } }]);
    expect(ledger).toEqual(['Bob 10']);
    run.reject('call_1', 'not approved');
    expect(await run.result).toMatchObject({ reason: 'max-rounds' });
    expect(ledger).toEqual(['Bob 10']);
  });

  it('a decision given from an approval.requested listener (as a served chat does) answers that request, never the next agent’s', async () => {
    const ledger: string[] = [];
    const run = twoPayers(ledger).run('Pay.');
    const decisions: RunEvent[] = [];
    let answered = 0;
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'approval.decided') decisions.push(event.event);
      // Approves the first request it hears of, and tries to approve it again: the repeat is refused.
      if (event.type === 'agent.event' && event.event.type === 'approval.requested' && answered++ === 0) {
        const { id } = event.event;
        run.approve(id);
        expect(() => run.approve(id)).toThrow(notPending);
      }
    });
    await waitingFor(run, 'payer_b');
    expect(ledger).toEqual(['Bob 10']);
    run.reject('call_1');
    await run.result;
    expect(decisions).toMatchObject([
      { agent: 'payer', id: 'call_1', approved: true },
      { agent: 'payer_b', id: 'call_1', approved: false },
    ]);
    expect(ledger).toEqual(['Bob 10']);
  });

  for (const withSources of [false, true]) {
    it(`chat.resume(snapshot) then approve twice before it starts${withSources ? ' (MCP-like tool sources)' : ''}: delivered once, the repeat refused, payer_b still waits`, async () => {
      const ledger: string[] = [];
      const first = twoPayers(ledger, withSources).run('Pay.');
      await waitingFor(first, 'payer');
      const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
      first.abort();
      const again = twoPayers(ledger, withSources);
      if (withSources) {
        // The agent whose turn it resumes restores its run against its sources' tools: a clear error until they are loaded.
        expect(() => again.resume(snapshot)).toThrow(
          expect.objectContaining({ code: 'CONFIGURATION_INVALID', message: expect.stringContaining('loadTools()') }),
        );
        await again.loadTools();
      }
      const resumed = again.resume(snapshot);
      resumed.approve('call_1');
      expect(() => resumed.approve('call_1')).toThrow(notPending);
      expect(() => resumed.reject('call_1')).toThrow(notPending);
      await waitingFor(resumed, 'payer_b');
      expect(ledger).toEqual(['Bob 10']);
      resumed.reject('call_1');
      expect(await resumed.result).toMatchObject({ reason: 'max-rounds' });
      expect(ledger).toEqual(['Bob 10']);
    });
  }

  it("a resumed chat that has started but not yet taken the answer held for it refuses another: the held one is never kept for the person's next turn", async () => {
    const echo = createAgent({ name: 'echo', model: scriptedModel(() => ({ text: 'heard' })) });
    const desk = () =>
      createGroupChat({ name: 'desk', agents: [humanAgent({ name: 'alice' }), echo], speakerSelection: 'round_robin', maxRounds: 3 });
    const first = desk().run('Talk.');
    while (first.waiting()?.kind !== 'human') await new Promise((resolve) => setTimeout(resolve, 1));
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    first.abort();
    const resumed = desk().resume(snapshot);
    resumed.say('held before the start');
    const refused: unknown[] = [];
    let turns = 0;
    resumed.events$.subscribe((event) => {
      // Right after the start, before the held answer is delivered: a second answer to the same wait.
      if (event.type === 'human.waiting' && turns === 0) {
        try {
          resumed.say('given after the start');
        } catch (error) {
          refused.push(error);
        }
      }
      // The first human.waiting is the wait it resumed in (answered, held); the second is alice's next turn.
      if (event.type === 'human.waiting' && turns++ === 1) resumed.say('next turn');
    });
    const result = await resumed.result;
    expect(refused).toEqual([expect.objectContaining({ code: 'GROUP_CHAT_NOT_WAITING' })]);
    expect(result.messages.filter((message) => message.role === 'user' && message.name === 'alice').map((message) => message.content)).toEqual([
      'held before the start',
      'next turn',
    ]);
  });

  for (const form of ['resumeChatFromStore', 'resumePending'] as const) {
    it(`${form} with MCP-like tool sources: an approval given at once is delivered (not dropped), a repeat refused, payer_b untouched`, async () => {
      const clock = testClock();
      const store = await createSqliteRunStore({ path: join(scratch, `${form}.db`), now: clock.now });
      try {
        const ledger: string[] = [];
        const chatId = `chat-${form}`;
        const first = twoPayers(ledger, true).run('Pay.', { store, chatId });
        await waitingFor(first, 'payer');
        while ((await store.loadRun(chatId))?.status !== 'waiting') await new Promise((resolve) => setTimeout(resolve, 2));
        clock.advance(60_000); // its process is gone
        const resumed =
          form === 'resumeChatFromStore'
            ? (await resumeChatFromStore(twoPayers(ledger, true), chatId, { store, owner: 'w2' })).chat
            : (await resumePending({ store, owner: 'w2', chats: [twoPayers(ledger, true)] })).chats[0]?.chat;
        if (resumed === undefined) throw new Error('not resumed');
        resumed.approve('call_1');
        expect(() => resumed.approve('call_1')).toThrow(notPending);
        await waitingFor(resumed, 'payer_b');
        expect(ledger).toEqual(['Bob 10']);
        resumed.reject('call_1');
        expect(await resumed.result).toMatchObject({ reason: 'max-rounds' });
        expect(ledger).toEqual(['Bob 10']);
      } finally {
        await store.close();
      }
    });
  }

  it('chat.resume(id, { store }) while it loads: an approval is refused with a clear error (nothing kept), and given after the first event it is delivered once', async () => {
    const clock = testClock();
    const store = await createSqliteRunStore({ path: join(scratch, 'deferred.db'), now: clock.now });
    try {
      const ledger: string[] = [];
      const first = twoPayers(ledger, true).run('Pay.', { store, chatId: 'chat-deferred' });
      await waitingFor(first, 'payer');
      while ((await store.loadRun('chat-deferred'))?.status !== 'waiting') await new Promise((resolve) => setTimeout(resolve, 2));
      clock.advance(60_000);
      const resumed = twoPayers(ledger, true).resume('chat-deferred', { store, owner: 'w2' });
      expect(() => resumed.approve('call_1')).toThrow(
        expect.objectContaining({ code: 'GROUP_CHAT_NOT_WAITING', message: expect.stringContaining('after its first event') }),
      );
      await waitingFor(resumed, 'payer');
      resumed.approve('call_1');
      expect(() => resumed.approve('call_1')).toThrow(notPending);
      await waitingFor(resumed, 'payer_b');
      resumed.reject('call_1');
      await resumed.result;
      expect(ledger).toEqual(['Bob 10']);
    } finally {
      await store.close();
    }
  });

  it('an agent run: a repeated approve is refused, and a decision on a call that is not pending changes nothing', async () => {
    const ledger: string[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ to: z.string() }),
      approval: 'always',
      execute: ({ to }) => {
        ledger.push(to);
        return `paid ${to}`;
      },
    });
    let step = 0;
    const agent = createAgent({
      name: 'payer',
      model: scriptedModel(() =>
        step++ < 2 ? { toolCalls: [{ id: `call_${step}`, name: 'pay', arguments: { to: step === 1 ? 'Bob' : 'Mallory' } }] } : { text: 'done' },
      ),
      tools: [pay],
    });
    const run = agent.run('Pay.');
    while (run.pendingApprovals.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(() => run.approve('call_2')).toThrow(notPending); // early: Mallory's call is not asked for yet
    run.approve('call_1');
    expect(() => run.approve('call_1')).toThrow(notPending);
    while (run.pendingApprovals.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(run.pendingApprovals).toMatchObject([{ id: 'call_2', arguments: { to: 'Mallory' } }]);
    run.reject('call_2');
    await run.result;
    expect(ledger).toEqual(['Bob']);
  });

  it("a person's words given twice before the first is taken: the second is refused, never kept for the person's next turn", async () => {
    const echo = createAgent({ name: 'echo', model: scriptedModel(() => ({ text: 'heard' })) });
    const run = createGroupChat({ name: 'desk', agents: [humanAgent({ name: 'alice' }), echo], speakerSelection: 'round_robin', maxRounds: 3 }).run(
      'Talk.',
    );
    const refused: unknown[] = [];
    let turns = 0;
    run.events$.subscribe((event) => {
      if (event.type !== 'human.waiting') return;
      if (turns++ > 0) return run.say('second turn');
      run.say('yes');
      try {
        run.say('and pay Mallory');
      } catch (error) {
        refused.push(error);
      }
    });
    const result = await run.result;
    expect(refused).toEqual([expect.objectContaining({ code: 'GROUP_CHAT_NOT_WAITING' })]);
    expect(result.messages.filter((message) => message.role === 'user' && message.name === 'alice').map((message) => message.content)).toEqual([
      'yes',
      'second turn',
    ]);
  });

  it('a manual choice given twice before the first is taken: the second is refused, never applied to the next choice', async () => {
    const talker = (name: string) => createAgent({ name, model: scriptedModel(() => ({ text: `${name} spoke` })) });
    const run = createGroupChat({ name: 'desk', agents: [talker('a'), talker('b')], speakerSelection: 'manual', maxRounds: 2 }).run('Talk.');
    const refused: unknown[] = [];
    let choices = 0;
    run.events$.subscribe((event) => {
      if (event.type !== 'speaker.choice.requested') return;
      if (choices++ > 0) return run.select('a');
      run.select('a');
      try {
        run.select('b');
      } catch (error) {
        refused.push(error);
      }
    });
    const result = await run.result;
    expect(refused).toEqual([expect.objectContaining({ code: 'GROUP_CHAT_NOT_WAITING' })]);
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['a', 'a']);
  });
});
