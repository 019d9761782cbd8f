import { defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

describe('agent tool loop', () => {
  it('calls a tool, feeds its result back and ends with the answer', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
    const agent = createAgent({ name: 'calc', model, tools: [add], instructions: 'Use tools.' });
    const result = await agent.run('What is 2 + 3?').result;
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('The sum is 5.');
    expect(result.steps).toBe(2);
    expect(result.toolCalls).toEqual([
      { step: 1, call: { id: 'call_0_0', name: 'add', arguments: { a: 2, b: 3 } }, content: '5', isError: false, value: 5 },
    ]);
    expect(model.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'What is 2 + 3?' },
      { role: 'assistant', content: '', name: 'calc', toolCalls: [{ id: 'call_0_0', name: 'add', arguments: { a: 2, b: 3 } }] },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'add', content: '5' },
    ]);
  });
});
