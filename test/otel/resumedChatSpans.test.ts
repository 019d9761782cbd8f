import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DurableChat, resumeChatFromStore, resumePending, startChatInStore } from '@agentchart/actors';
import type { RunStore } from '@agentchart/core';
import { genAiTracing } from '@agentchart/otel';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testClock } from '../store/runStoreContract.js';
import { RESUMED_TREE, officeChat } from './officeChat.js';
import { memoryTracing, spanTree } from './spanTree.js';

const LEASE = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'agentchart-otel-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHOWN = ['gen_ai.agent.name', 'agentchart.stop_reason'];

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('timed out');
}

describe('a resumed chat is one trace under its invoke_workflow span', () => {
  const clock = testClock();
  const opened: RunStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  let next = 0;
  /** A chat that waits for the approval of `pay`, stored by a "process" that then dies (its lease runs out). */
  async function waitingChat(): Promise<{ chatId: string; second: RunStore }> {
    const path = join(dir, `runs-${++next}.db`);
    const [first, second] = [await createSqliteRunStore({ path, now: clock.now }), await createSqliteRunStore({ path, now: clock.now })];
    opened.push(first, second);
    const chatId = `office-${next}`;
    await startChatInStore(officeChat(), 'Pay Bob.', { store: first, chatId, owner: 'w1', leaseMs: LEASE });
    await until(async () => (await first.loadRun(chatId))?.status === 'waiting');
    clock.advance(LEASE + 1);
    return { chatId, second };
  }
  async function approveAndFinish(durable: DurableChat): Promise<void> {
    await until(() => durable.chat.waiting()?.kind === 'approval');
    durable.chat.approve('p1');
    expect((await durable.chat.result).reason).toBe('max-rounds');
  }

  it('resumeChatFromStore: traceChat of the resumed chat opens the root span', async () => {
    const { chatId, second } = await waitingChat();
    const { tracer, spans } = memoryTracing();
    const chat = officeChat();
    const durable = await resumeChatFromStore(chat, chatId, { store: second, owner: 'w2', leaseMs: LEASE });
    genAiTracing({ tracer }).traceChat(durable.chat, { name: chat.name });
    await approveAndFinish(durable);

    expect(spanTree(spans(), SHOWN)).toBe(RESUMED_TREE);
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(spans().find((span) => span.parentSpanContext === undefined)?.attributes).toMatchObject({
      'gen_ai.conversation.id': chatId,
      'agentchart.chat.resumed': true,
    });
  });

  it('resumePending: traceChat of each resumed chat opens its root span', async () => {
    const { chatId, second } = await waitingChat();
    const { tracer, spans } = memoryTracing();
    const chat = officeChat();
    const { chats } = await resumePending({ store: second, owner: 'w2', leaseMs: LEASE, chats: [chat] });
    expect(chats).toHaveLength(1);
    const durable = chats[0] as DurableChat;
    genAiTracing({ tracer }).traceChat(durable.chat, { name: chat.name });
    await approveAndFinish(durable);

    expect(spanTree(spans(), SHOWN)).toBe(RESUMED_TREE);
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(spans().find((span) => span.parentSpanContext === undefined)?.attributes['gen_ai.conversation.id']).toBe(chatId);
  });
});
