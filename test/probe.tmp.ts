import { createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';
const pay = defineTool({ name: 'pay', description: 'pay', parameters: z.object({ amount: z.number() }), approval: 'always', execute: ({ amount }, ctx) => { ctx.state.set('paid', amount); return `paid ${amount}`; } });
const a = createAgent({ name: 'payer', model: scriptedModel([{ text: 'Paying.', toolCalls: [{ name: 'pay', arguments: { amount: 5 } }] }, { text: 'Done.' }]), tools: [pay] });
const b = createAgent({ name: 'critic', model: scriptedModel([{ text: 'Fine.' }]) });
const h = humanAgent({ name: 'alice' });
const chat = createGroupChat({ agents: [a, h, b], speakerSelection: 'round_robin', maxRounds: 3, sharedState: { budget: 10 } });
const run = chat.run('Pay 5.');
run.events$.subscribe((e) => {
  console.log(JSON.stringify(e).slice(0, 220));
  if (e.type === 'agent.event' && e.event.type === 'approval.requested') setImmediate(() => { console.log('WAIT', JSON.stringify(run.waiting())); run.approve(e.event.id); });
  if (e.type === 'human.waiting') setImmediate(() => { console.log('WAIT', JSON.stringify(run.waiting())); run.say('ok'); });
});
const r = await run.result;
console.log(r.reason, JSON.stringify(r.messages));
