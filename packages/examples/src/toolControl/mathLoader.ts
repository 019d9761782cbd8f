/**
 * The loader pattern: the agent starts with one small "loader" tool, and the
 * loader adds the real tools to the run when the model asks for them. The
 * first request carries one schema instead of three.
 */
import { type ChatModel, defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import type { ScriptedTurn } from '@agentchart/providers';
import { z } from 'zod';

export const factorial = defineTool({
  name: 'factorial',
  description: 'Computes the factorial of n.',
  parameters: z.object({ n: z.number().int().nonnegative().describe('A non-negative integer.') }),
  execute: ({ n }) => {
    let result = 1;
    for (let value = 2; value <= n; value++) result *= value;
    return `${n}! = ${result}`;
  },
});

export const fibonacci = defineTool({
  name: 'fibonacci',
  description: 'Computes the n-th Fibonacci number.',
  parameters: z.object({ n: z.number().int().nonnegative().describe('The 0-based index in the Fibonacci sequence.') }),
  execute: ({ n }) => {
    let [a, b] = [0, 1];
    for (let index = 0; index < n; index++) [a, b] = [b, a + b];
    return `fib(${n}) = ${a}`;
  },
});

/** The loader: `ctx` is given by the agent and never part of the model's schema. */
export const loadMathTools = defineTool({
  name: 'load_math_tools',
  description: 'Load additional math tools (factorial, fibonacci) so they can be used.',
  parameters: z.object({}),
  execute: (_args, ctx) => {
    ctx.addTools([factorial, fibonacci]);
    return 'Loaded math tools: factorial, fibonacci. You can now call them.';
  },
});

/** A math assistant that starts with the loader only. */
export function mathAgent(model: ChatModel) {
  return createAgent({
    name: 'MathAgent',
    model,
    instructions: 'You are a math assistant. If you need math capabilities that are not yet available, call load_math_tools first.',
    tools: [loadMathTools],
  });
}

/** What a model does with "What is 5 factorial?": load, compute, answer. */
export const mathLoaderScript: ScriptedTurn[] = [
  { text: 'I need the math tools first.', toolCalls: [{ name: 'load_math_tools' }] },
  { toolCalls: [{ name: 'factorial', arguments: { n: 5 } }] },
  { text: '5 factorial is 120.' },
];
