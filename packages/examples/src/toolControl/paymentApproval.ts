/**
 * Approval: transfers above 100 wait for a person. The run is persisted while
 * it waits, and a fresh agent resumes it from the JSON (as another process
 * would) once someone has decided.
 */
import { type ChatModel, defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import type { ScriptedResponder } from '@agentchart/providers';
import { z } from 'zod';

export const transferMoney = defineTool({
  name: 'transfer_money',
  description: 'Transfers money to a person.',
  parameters: z.object({ to: z.string(), amount: z.number().positive() }),
  approval: ({ amount }) => amount > 100,
  execute: ({ to, amount }) => `Sent ${amount} EUR to ${to}.`,
});

export function paymentAgent(model: ChatModel) {
  return createAgent({ name: 'PaymentAgent', model, instructions: 'You make payments.', tools: [transferMoney] });
}

/** A model that pays Ann 40 and Bob 250 in one batch, then reports what happened. */
export const paymentScript: ScriptedResponder = (request) => {
  const results = request.messages.filter((message) => message.role === 'tool');
  if (results.length === 0) {
    return {
      toolCalls: [
        { id: 'pay_ann', name: 'transfer_money', arguments: { to: 'Ann', amount: 40 } },
        { id: 'pay_bob', name: 'transfer_money', arguments: { to: 'Bob', amount: 250 } },
      ],
    };
  }
  return { text: results.map((message) => message.content).join(' ') };
};
