import { HttpAgent } from '@ag-ui/client';
import { createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { serveAgUi } from '@agentchart/ag-ui';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { it } from 'vitest';
import { z } from 'zod';
import { describeEvent, runWithClient } from './agUiTestSupport.js';

it('probe', async () => {
  const pay = defineTool({ name: 'pay', description: 'pay', parameters: z.object({ amount: z.number() }), approval: 'always', execute: ({ amount }, ctx) => { ctx.state.set('paid', amount); return `paid ${amount}`; } });
  const a = createAgent({ name: 'payer', model: scriptedModel([{ text: 'Paying.', toolCalls: [{ name: 'pay', arguments: { amount: 5 } }] }, { text: 'Done.' }]), tools: [pay] });
  const b = createAgent({ name: 'critic', model: scriptedModel([{ text: 'Fine.' }]) });
  const h = humanAgent({ name: 'alice' });
  const chat = createGroupChat({ name: 'team', agents: [a, h, b], speakerSelection: 'round_robin', maxRounds: 3, sharedState: { budget: 10 } });
  const listener = await serveAgUi({ chats: [chat] }).listen();
  const client = new HttpAgent({ url: listener.urlOf('team'), threadId: 't1' });
  client.addMessage({ id: 'u1', role: 'user', content: 'Pay 5.' });
  for (const e of await runWithClient(client)) console.log(describeEvent(e));
  const interrupt = client.pendingInterrupts[0]!;
  console.log(JSON.stringify(interrupt));
  for (const e of await runWithClient(client, { resume: [{ interruptId: interrupt.id, status: 'resolved', payload: { approved: true } }] })) console.log(describeEvent(e));
  const i2 = client.pendingInterrupts[0]!;
  for (const e of await runWithClient(client, { resume: [{ interruptId: i2.id, status: 'resolved', payload: { text: 'ok' } }] })) console.log(describeEvent(e));
  console.log(JSON.stringify(client.messages), JSON.stringify(client.state));
  await listener.close();
});
