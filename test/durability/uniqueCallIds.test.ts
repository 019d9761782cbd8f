import { defineTool, msg } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { toOpenAIMessages } from '../../packages/providers/src/openai/toOpenAIMessages.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { waitForState } from '../toolControl/helpers.js';

function transferAgent(ledger: string[], replies: { toolCalls?: { id: string; name: string; arguments: unknown }[]; text?: string }[]) {
  const transfer = defineTool({
    name: 'transfer',
    description: 'Transfers money.',
    parameters: z.object({ to: z.string(), amount: z.number() }),
    approval: 'always',
    execute: ({ to, amount }) => {
      ledger.push(`transfer ${to} ${amount}`);
      return `sent ${amount} to ${to}`;
    },
  });
  const model = scriptedModel(replies);
  return { model, agent: createAgent({ name: 'payer', model, tools: [transfer] }) };
}

describe('unique call ids inside a run', () => {
  it('two calls with one id are two calls: approving one runs only it', async () => {
    const ledger: string[] = [];
    const { agent, model } = transferAgent(ledger, [
      {
        toolCalls: [
          { id: 'dup', name: 'transfer', arguments: { to: 'Ann', amount: 150 } },
          { id: 'dup', name: 'transfer', arguments: { to: 'Mallory', amount: 1_000_000 } },
        ],
      },
      { text: 'done' },
    ]);
    const run = agent.run('Pay Ann 150');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => [request.id, request.arguments])).toEqual([
      ['dup', { to: 'Ann', amount: 150 }],
      ['dup~2', { to: 'Mallory', amount: 1_000_000 }],
    ]);
    run.approve('dup');
    run.reject('dup~2', 'not asked for');
    const result = await run.result;
    expect(ledger).toEqual(['transfer Ann 150']);
    const toolMessages = result.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => [message.toolCallId, message.content])).toEqual([
      ['dup', 'sent 150 to Ann'],
      ['dup~2', 'The call of "transfer" was rejected by the user and did not run. Reason: not asked for'],
    ]);
    // The model is answered under the id it gave.
    const wire = toOpenAIMessages(model.requests[1]!.messages);
    expect(wire.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['dup', 'dup']);
    const assistant = wire.find((message) => message.role === 'assistant');
    expect(assistant && 'tool_calls' in assistant ? assistant.tool_calls?.map((call) => call.id) : undefined).toEqual(['dup', 'dup']);
  });

  it('an id the model reuses in a later reply gets its own id too', async () => {
    const ledger: string[] = [];
    const { agent } = transferAgent(ledger, [
      { toolCalls: [{ id: 'call_0', name: 'transfer', arguments: { to: 'Ann', amount: 1 } }] },
      { toolCalls: [{ id: 'call_0', name: 'transfer', arguments: { to: 'Bob', amount: 2 } }] },
      { text: 'done' },
    ]);
    const run = agent.run('Pay twice');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['call_0']);
    run.approve('call_0');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['call_0~2']);
    expect(() => run.approve('call_0')).toThrow(/No pending approval request has id "call_0"/);
    run.approve('call_0~2');
    await run.result;
    expect(ledger).toEqual(['transfer Ann 1', 'transfer Bob 2']);
  });

  it('the OpenAI wire keeps a call’s own id when it was not renamed', () => {
    const wire = toOpenAIMessages([msg.assistant('', [{ id: 'a', name: 't', arguments: {} }]), msg.tool('a', 't', 'ok')]);
    expect(wire).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 't', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
    ]);
  });
});
