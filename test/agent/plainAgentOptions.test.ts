import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentOptionsSchema } from '../../packages/actors/src/agent/agentOptionsSchema.js';
import { isPlainAgentOptions } from '../../packages/actors/src/agent/plainAgentOptions.js';

describe('isPlainAgentOptions: the hand check before the options schema', () => {
  const model = scriptedModel([]);
  const plain: Record<string, unknown>[] = [
    { name: 'a', model },
    { name: 'agent_1-x', model, instructions: 'x', tools: [], maxSteps: 25, maxToolCalls: 1, maxConsecutiveErrors: 3 },
    { name: 'a', model, detailedErrors: false, unnamedTools: 'refuse', middleware: [], maxTokens: 5, prices: {} },
    { name: 'a'.repeat(64), model, instructions: undefined, maxSteps: undefined, unnamedTools: 'where-free' },
  ];
  const notPlain: unknown[] = [
    undefined,
    null,
    'a',
    [],
    { name: 'a' },
    { name: 'a', model: {} },
    { name: 'a b', model },
    { name: '', model },
    { name: 'a'.repeat(65), model },
    { name: 3, model },
    { name: 'a', model, instructions: 3 },
    { name: 'a', model, maxSteps: 0 },
    { name: 'a', model, maxSteps: 2.5 },
    { name: 'a', model, maxSteps: '3' },
    { name: 'a', model, maxToolCalls: Number.POSITIVE_INFINITY },
    { name: 'a', model, maxConsecutiveErrors: Number.NaN },
    { name: 'a', model, maxSteps: 2 ** 53 },
    { name: 'a', model, detailedErrors: 'no' },
    { name: 'a', model, unnamedTools: 'allow' },
    // Valid, but left to the schema: their forms are its to check.
    { name: 'a', model, toolChoice: 'auto' },
    { name: 'a', model, inspect: () => undefined },
    { name: 'a', model, stateSchema: z.object({}) },
  ];

  it('passes only options the schema accepts', () => {
    for (const options of plain) {
      expect(isPlainAgentOptions(options)).toBe(true);
      expect(AgentOptionsSchema.safeParse(options).success).toBe(true);
    }
  });

  it('leaves everything else to the schema (which names what is wrong)', () => {
    for (const options of notPlain) expect(isPlainAgentOptions(options)).toBe(false);
    const rejected = notPlain.filter((options) => !AgentOptionsSchema.safeParse(options).success);
    expect(rejected).toHaveLength(notPlain.length - 3);
  });
});
