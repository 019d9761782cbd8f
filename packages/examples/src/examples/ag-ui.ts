/**
 * A group chat as an AG-UI agent: `pnpm example ag-ui`. Three agents (a
 * planner, a payer whose `pay` waits for approval, a critic) are served with
 * `serveAgUi` on 127.0.0.1; `HttpAgent` from `@ag-ui/client`, what agent
 * front ends use, runs the chat with its event verification on and prints
 * every event. The approval ends the first stream with an interrupt; the
 * second run on the same thread resumes it with `{ approved: true }` and the
 * chat goes on to its end.
 */
import { HttpAgent } from '@ag-ui/client';
import { createAgent, createGroupChat } from '@agentchart/actors';
import { serveAgUi } from '@agentchart/ag-ui';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const pay = defineTool({
  name: 'pay',
  description: 'Pays an amount from the budget.',
  parameters: z.object({ amount: z.number() }),
  approval: 'always',
  execute: ({ amount }, ctx) => {
    ctx.state.set('spent', amount);
    return `paid ${amount}`;
  },
});
const team = createGroupChat({
  name: 'team',
  agents: [
    createAgent({ name: 'planner', model: scriptedModel([{ text: 'Book the 40 train tickets.' }]) }),
    createAgent({
      name: 'payer',
      model: scriptedModel([{ text: 'Paying 40.', toolCalls: [{ name: 'pay', arguments: { amount: 40 } }] }, { text: 'Paid.' }]),
      tools: [pay],
    }),
    createAgent({ name: 'critic', model: scriptedModel([{ text: 'Within budget. Done.' }]) }),
  ],
  speakerSelection: 'round_robin',
  maxRounds: 3,
  sharedState: { budget: 100 },
});

const listener = await serveAgUi({ chats: [team] }).listen();
console.log(`serving ${listener.urlOf('team')}\n`);
const client = new HttpAgent({ url: listener.urlOf('team'), threadId: 'trip' });
client.addMessage({ id: 'task', role: 'user', content: 'Book the train.' });

/** One line per event: its type and what it carries. */
const print = ({ event }: { event: { type: string } & Record<string, unknown> }) => {
  const { type, timestamp: _timestamp, ...rest } = event;
  const shown = type === 'MESSAGES_SNAPSHOT' ? { messages: `${(rest.messages as unknown[]).length} messages` } : rest;
  console.log(`${type} ${JSON.stringify(shown)}`);
};

try {
  console.log('--- run 1: the chat until the payment waits for approval');
  await client.runAgent({ runId: 'run-1' }, { onEvent: print });
  const [interrupt] = client.pendingInterrupts;
  if (interrupt === undefined) throw new Error('The chat did not wait for the approval.');
  console.log(`\n--- run 2: a person approves ${JSON.stringify(interrupt.metadata)}`);
  await client.runAgent(
    { runId: 'run-2', resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }] },
    { onEvent: print },
  );
  console.log(
    `\nthread: ${client.messages.map((message) => `${'name' in message && message.name ? message.name : message.role}: ${String(message.content)}`).join(' | ')}`,
  );
  console.log(`state: ${JSON.stringify(client.state)}`);
} finally {
  await listener.close();
}
