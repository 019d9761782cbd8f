/**
 * W1's workload, shared by `agentLoop` (through an agent) and `stepWork` (with
 * no actor): three zod tools and a zero-latency scripted model that calls one
 * tool per step for `STEPS_PER_RUN` steps and then answers.
 */
import { defineTool } from '@agentchart/core';
import { type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

export const STEPS_PER_RUN = 20;

export const w1Tools = [
  defineTool({
    name: 'lookup',
    description: 'Looks up a key.',
    parameters: z.object({ key: z.string() }),
    execute: ({ key }) => `value of ${key}`,
  }),
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b,
  }),
  defineTool({
    name: 'tag',
    description: 'Tags an item.',
    parameters: z.object({ item: z.string(), tags: z.array(z.string()) }),
    execute: ({ item, tags }) => ({ item, tags }),
  }),
];

const toolTurns: ScriptedTurn[] = [
  { toolCalls: [{ name: 'lookup', arguments: { key: 'k' } }] },
  { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
  { toolCalls: [{ name: 'tag', arguments: { item: 'x', tags: ['a', 'b'] } }] },
];
const answer: ScriptedTurn = { text: 'done' };

/**
 * The scripted model of W1: `steps` tool calls (default `STEPS_PER_RUN`),
 * then an answer, again and again. `onRequest` is called as each request
 * arrives (a step's boundary), with its index in the run.
 */
export function w1Model(steps = STEPS_PER_RUN, onRequest?: (position: number) => void) {
  return scriptedModel(
    (_request, index) => {
      const position = index % (steps + 1);
      onRequest?.(position);
      return position < steps ? (toolTurns[position % 3] as ScriptedTurn) : answer;
    },
    { recordRequests: false },
  );
}
