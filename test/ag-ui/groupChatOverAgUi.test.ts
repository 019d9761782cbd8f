import { HttpAgent } from '@ag-ui/client';
import { type AgUiListener, serveAgUi } from '@agentchart/ag-ui';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEvent, runWithClient } from './agUiTestSupport.js';
import { paymentTeam } from './team.js';

const listeners: AgUiListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function serveTeam(payments: number[]) {
  const listener = await serveAgUi({ chats: [paymentTeam(payments)] }).listen();
  listeners.push(listener);
  const client = new HttpAgent({ url: listener.urlOf('team'), threadId: 'thread-1' });
  client.addMessage({ id: 'task', role: 'user', content: 'Buy the tickets.' });
  return client;
}

const selected = (speaker: string, round: number) =>
  `CUSTOM agentchart.speaker_selected ${JSON.stringify({ speaker, round, by: 'round_robin', eligible: ['planner', 'payer', 'alice', 'critic'] })}`;

describe('a group chat over AG-UI (HttpAgent with its verification)', () => {
  it('streams turns as steps, ends at the approval with an interrupt, and continues the same chat through the resumes', async () => {
    const payments: number[] = [];
    const client = await serveTeam(payments);

    const first = await runWithClient(client, { runId: 'run-1' });
    expect(first.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {"budget":10}',
      selected('planner', 1),
      'STEP_STARTED planner',
      'TEXT_MESSAGE_START assistant planner',
      'TEXT_MESSAGE_CONTENT "Pay 5 for the tickets."',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED planner',
      selected('payer', 2),
      'STEP_STARTED payer',
      'TEXT_MESSAGE_START assistant payer',
      'TEXT_MESSAGE_CONTENT "Paying."',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START pay r2.call_0_0',
      'TOOL_CALL_ARGS {"amount":5}',
      'TOOL_CALL_END',
      'STEP_FINISHED payer',
      'MESSAGES_SNAPSHOT 3',
      'RUN_FINISHED interrupt tool_approval {"callId":"r2.call_0_0","toolName":"pay","arguments":{"amount":5}}',
    ]);
    expect(client.pendingInterrupts).toEqual([
      expect.objectContaining({ id: 'thread-1/run-1#approval:call_0_0', reason: 'tool_approval', toolCallId: 'r2.call_0_0' }),
    ]);
    expect(payments).toEqual([]);

    const second = await runWithClient(client, {
      runId: 'run-2',
      resume: [{ interruptId: 'thread-1/run-1#approval:call_0_0', status: 'resolved', payload: { approved: true } }],
    });
    expect(second.map(describeEvent)).toEqual([
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
      selected('alice', 3),
      'STEP_STARTED alice',
      'STEP_FINISHED alice',
      'MESSAGES_SNAPSHOT 5',
      'RUN_FINISHED interrupt human_turn {"speaker":"alice"}',
    ]);
    expect(payments).toEqual([5]);

    const third = await runWithClient(client, {
      runId: 'run-3',
      resume: [{ interruptId: 'thread-1/run-1#turn:alice', status: 'resolved', payload: { text: 'Go ahead.' } }],
    });
    expect(third.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {"budget":10,"paid":5}',
      'STEP_STARTED alice',
      'TEXT_MESSAGE_START user alice',
      'TEXT_MESSAGE_CONTENT "Go ahead."',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED alice',
      selected('critic', 4),
      'STEP_STARTED critic',
      'TEXT_MESSAGE_START assistant critic',
      'TEXT_MESSAGE_CONTENT "Fine."',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED critic',
      'MESSAGES_SNAPSHOT 7',
      'RUN_FINISHED success',
    ]);
    expect(payments).toEqual([5]);
    // The client's thread is the chat's transcript, with the client's own id for the task.
    expect(
      client.messages.map((message) => [
        message.id.startsWith('task') ? 'task' : 'server',
        message.role,
        'name' in message ? message.name : undefined,
        message.content,
      ]),
    ).toEqual([
      ['task', 'user', undefined, 'Buy the tickets.'],
      ['server', 'assistant', 'planner', 'Pay 5 for the tickets.'],
      ['server', 'assistant', 'payer', 'Paying.'],
      ['server', 'tool', undefined, 'paid 5'],
      ['server', 'assistant', 'payer', 'Done.'],
      ['server', 'user', 'alice', 'Go ahead.'],
      ['server', 'assistant', 'critic', 'Fine.'],
    ]);
    expect(client.state).toEqual({ budget: 10, paid: 5 });
    const finished = third.at(-1) as { result?: unknown };
    expect(finished.result).toEqual({ reason: 'max-rounds', lastSpeaker: 'critic', rounds: 4 });
  });

  it('a rejected call never runs: the payer is told the reason', async () => {
    const payments: number[] = [];
    const client = await serveTeam(payments);
    await runWithClient(client, { runId: 'run-1' });
    const events = await runWithClient(client, {
      runId: 'run-2',
      resume: [{ interruptId: 'thread-1/run-1#approval:call_0_0', status: 'resolved', payload: { approved: false, reason: 'Too expensive.' } }],
    });
    expect(events.map(describeEvent).slice(3, 6)).toEqual([
      'CUSTOM agentchart.approval_decided {"toolCallId":"r2.call_0_0","toolName":"pay","approved":false,"reason":"Too expensive."}',
      expect.stringMatching(/^TOOL_CALL_RESULT r2\.call_0_0 ".*Too expensive\..*"$/),
      'TEXT_MESSAGE_START assistant payer',
    ]);
    expect(payments).toEqual([]);
  });

  it('refuses a resume that names no pending interrupt, and an input that ignores the pending one', async () => {
    const client = await serveTeam([]);
    const stranger = new HttpAgent({ url: client.url, threadId: 'thread-1' });
    stranger.addMessage({ id: 'task', role: 'user', content: 'Buy the tickets.' });
    const nothingPending = await runWithClient(stranger, {
      runId: 'run-0',
      resume: [{ interruptId: 'thread-1/run-0#approval:call_0_0', status: 'resolved', payload: { approved: true } }],
    });
    expect(nothingPending.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'RUN_ERROR AG_UI_NO_PENDING_INTERRUPT: Thread "thread-1" of "team" is not waiting for anything: send an input without `resume` to start a run.',
    ]);

    await runWithClient(client, { runId: 'run-1' });
    const wrongId = await runWithClient(stranger, {
      runId: 'run-2',
      resume: [{ interruptId: 'thread-1/run-1#approval:call_9_9', status: 'resolved', payload: { approved: true } }],
    });
    expect(wrongId.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'RUN_ERROR AG_UI_NO_PENDING_INTERRUPT: The resume names interrupt "thread-1/run-1#approval:call_9_9", which this thread is not waiting for (pending: thread-1/run-1#approval:call_0_0).',
    ]);
    const ignored = await runWithClient(stranger, { runId: 'run-3' });
    expect(ignored.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'RUN_ERROR AG_UI_INTERRUPT_PENDING: Thread "thread-1" waits for 1 interrupt(s): answer them in `resume` before sending anything else.',
    ]);
    const badPayload = await runWithClient(stranger, {
      runId: 'run-4',
      resume: [{ interruptId: 'thread-1/run-1#approval:call_0_0', status: 'resolved', payload: { approved: 'yes' } }],
    });
    expect(badPayload.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'RUN_ERROR AG_UI_RESUME_INVALID: Interrupt "thread-1/run-1#approval:call_0_0" is answered with {"approved":"yes"}; it expects { "approved": true } or { "approved": false, "reason": "..." }.',
    ]);
    // The thread still waits, and the right answer continues it.
    const resumed = await runWithClient(client, {
      runId: 'run-5',
      resume: [{ interruptId: 'thread-1/run-1#approval:call_0_0', status: 'resolved', payload: { approved: true } }],
    });
    expect(resumed.map(describeEvent)).toContain('TOOL_CALL_RESULT r2.call_0_0 "paid 5"');
  });
});
