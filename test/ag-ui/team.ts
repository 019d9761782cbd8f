import { createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

/** A three-agent chat and a person: the planner plans, the payer pays (each payment waits for approval), alice answers, the critic closes. */
/** `pay`, which waits for approval, records each payment it makes and writes `paid` to the shared state. */
export function payTool(payments: number[]) {
  return defineTool({
    name: 'pay',
    description: 'Pays an amount from the budget.',
    parameters: z.object({ amount: z.number() }),
    approval: 'always',
    execute: ({ amount }, ctx) => {
      payments.push(amount);
      ctx.state.set('paid', amount);
      return `paid ${amount}`;
    },
  });
}

export function paymentTeam(payments: number[] = []) {
  const pay = payTool(payments);
  const planner = createAgent({ name: 'planner', model: scriptedModel([{ text: 'Pay 5 for the tickets.' }]) });
  const payer = createAgent({
    name: 'payer',
    // Answers from the transcript, so a restarted server's fresh model goes on where the chat is.
    model: scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'Done.' } : { text: 'Paying.', toolCalls: [{ name: 'pay', arguments: { amount: 5 } }] },
    ),
    tools: [pay],
  });
  const alice = humanAgent({ name: 'alice' });
  const critic = createAgent({ name: 'critic', model: scriptedModel([{ text: 'Fine.' }]) });
  return createGroupChat({
    name: 'team',
    agents: [planner, payer, alice, critic],
    speakerSelection: 'round_robin',
    maxRounds: 4,
    sharedState: { budget: 10 },
  });
}
