import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpAgent } from '@ag-ui/client';
import { serveAgUi } from '@agentchart/ag-ui';
import type { RunStore } from '@agentchart/core';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEvent, runWithClient } from './agUiTestSupport.js';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { payTool, paymentTeam } from './team.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sqliteStore(): Promise<RunStore> {
  const dir = mkdtempSync(join(tmpdir(), 'agentchart-ag-ui-'));
  const store = await createSqliteRunStore({ path: join(dir, 'runs.db') });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return store;
}

describe('a stored group chat over AG-UI', () => {
  it('survives a server restart: the resume continues the chat from the SQLite store and the approved call runs once', async () => {
    const store = await sqliteStore();
    const payments: number[] = [];
    const first = await serveAgUi({ chats: [paymentTeam(payments)], store, owner: 'ag-ui-server' }).listen();
    const client = new HttpAgent({ url: first.urlOf('team'), threadId: 'thread-s' });
    client.addMessage({ id: 'task', role: 'user', content: 'Buy the tickets.' });
    const interrupted = await runWithClient(client, { runId: 'run-1' });
    expect(interrupted.map(describeEvent).at(-1)).toBe(
      'RUN_FINISHED interrupt tool_approval {"callId":"r2.call_0_0","toolName":"pay","arguments":{"amount":5}}',
    );
    expect((await store.loadRun('thread-s/run-1'))?.status).toBe('waiting');
    await first.close();

    // Another server (a new chat object, the same store): what a restarted process has.
    const second = await serveAgUi({ chats: [paymentTeam(payments)], store, owner: 'ag-ui-server' }).listen();
    cleanups.push(() => second.close());
    client.url = second.urlOf('team');
    const resumed = await runWithClient(client, {
      runId: 'run-2',
      resume: [{ interruptId: 'thread-s/run-1#approval:call_0_0', status: 'resolved', payload: { approved: true } }],
    });
    expect(resumed.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {"budget":10}',
      'STEP_STARTED payer',
      'CUSTOM agentchart.approval_decided {"toolCallId":"r2.call_0_0","toolName":"pay","approved":true}',
      'STATE_DELTA [{"op":"add","path":"/paid","value":5}]',
      'TOOL_CALL_RESULT r2.call_0_0 "paid 5"',
      'TEXT_MESSAGE_START assistant payer',
      'TEXT_MESSAGE_CONTENT "Done."',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED payer',
      expect.stringMatching(/^CUSTOM agentchart\.speaker_selected \{"speaker":"alice","round":3/),
      'STEP_STARTED alice',
      'STEP_FINISHED alice',
      'MESSAGES_SNAPSHOT 5',
      'RUN_FINISHED interrupt human_turn {"speaker":"alice"}',
    ]);
    expect(payments).toEqual([5]);
    const done = await runWithClient(client, {
      runId: 'run-3',
      resume: [{ interruptId: 'thread-s/run-1#turn:alice', status: 'resolved', payload: { text: 'Go ahead.' } }],
    });
    expect(done.map(describeEvent).at(-1)).toBe('RUN_FINISHED success');
    expect(payments).toEqual([5]);
    expect(client.messages.map((message) => message.content)).toEqual([
      'Buy the tickets.',
      'Pay 5 for the tickets.',
      'Paying.',
      'paid 5',
      'Done.',
      'Go ahead.',
      'Fine.',
    ]);
    // The client's ids survived the restart: the server took them from the resume's messages.
    expect(client.messages[0]?.id).toBe('task');
    expect(new Set(client.messages.map((message) => message.id)).size).toBe(7);
    expect((await store.loadRun('thread-s/run-1'))?.status).toBe('finished');
  });
});

describe('a stored agent run over AG-UI', () => {
  it('ends at the approval with an interrupt and, after a restart, runs the approved call once', async () => {
    const store = await sqliteStore();
    const payments: number[] = [];
    const payer = () =>
      createAgent({
        name: 'payer',
        model: scriptedModel((request) =>
          request.messages.at(-1)?.role === 'tool' ? { text: 'Paid.' } : { toolCalls: [{ name: 'pay', arguments: { amount: 7 } }] },
        ),
        tools: [payTool(payments)],
      });
    const first = await serveAgUi({ agents: [payer()], store, owner: 'ag-ui-server' }).listen();
    const client = new HttpAgent({ url: first.urlOf('payer'), threadId: 'solo' });
    client.addMessage({ id: 'task', role: 'user', content: 'Pay 7.' });
    const interrupted = await runWithClient(client, { runId: 'run-1' });
    expect(interrupted.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {}',
      'TOOL_CALL_START pay call_0_0',
      'TOOL_CALL_ARGS {"amount":7}',
      'TOOL_CALL_END',
      'MESSAGES_SNAPSHOT 2',
      'RUN_FINISHED interrupt tool_approval {"callId":"call_0_0","toolName":"pay","arguments":{"amount":7}}',
    ]);
    await first.close();
    const second = await serveAgUi({ agents: [payer()], store, owner: 'ag-ui-server' }).listen();
    cleanups.push(() => second.close());
    client.url = second.urlOf('payer');
    const resumed = await runWithClient(client, {
      runId: 'run-2',
      resume: [{ interruptId: 'solo/run-1#approval:call_0_0', status: 'resolved', payload: { approved: true } }],
    });
    expect(resumed.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {}',
      'CUSTOM agentchart.approval_decided {"toolCallId":"call_0_0","toolName":"pay","approved":true}',
      'STATE_DELTA [{"op":"add","path":"/paid","value":7}]',
      'TOOL_CALL_RESULT call_0_0 "paid 7"',
      'TEXT_MESSAGE_START assistant payer',
      'TEXT_MESSAGE_CONTENT "Paid."',
      'TEXT_MESSAGE_END',
      'MESSAGES_SNAPSHOT 4',
      'RUN_FINISHED success',
    ]);
    expect(payments).toEqual([7]);
    expect(client.messages.map((message) => message.content)).toEqual(['Pay 7.', '', 'paid 7', 'Paid.']);
  });
});
