import { createAgent, type Agent, type InspectOption } from '@agentchart/actors';
import { defineTool, rules } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const LIBRARY: Record<string, string> = {
  'tower-of-hercules': 'The Tower of Hercules in A Coruña, Spain, is a Roman lighthouse from the 1st century AD, still in use.',
  pharos: 'The Pharos of Alexandria was destroyed by earthquakes between 956 and 1323.',
};

export const search = defineTool({
  name: 'search',
  description: 'Finds documents about a topic; returns their ids.',
  parameters: z.object({ query: z.string().min(1) }),
  execute: ({ query }) => Object.keys(LIBRARY).filter((id) => query.toLowerCase().includes('lighthouse') || id.includes(query.toLowerCase())),
});

export const read = defineTool({
  name: 'read',
  description: 'Reads one document by id.',
  parameters: z.object({ id: z.string() }),
  execute: ({ id }) => LIBRARY[id] ?? `No document "${id}".`,
});

export const answer = defineTool({
  name: 'answer',
  description: 'Gives the final answer with its source.',
  parameters: z.object({ text: z.string(), source: z.string() }),
  execute: ({ text, source }) => ({ text, source }),
});

/** search first; after search only read or answer; answer ends the run. */
export const researchRules = [rules.init('search'), rules.child('search', ['read', 'answer']), rules.terminal('answer')];

/**
 * A research agent under tool rules, on the scripted model. The model tries
 * to answer before searching once, so the rules refuse a call you can watch.
 *
 * @example
 * const run = researchAgent({ latencyMs: 300 }).run('Which is the oldest lighthouse still in use?');
 */
export function researchAgent(options: { latencyMs?: number; inspect?: InspectOption } = {}): Agent {
  const model = scriptedModel(
    [
      { text: 'I know this one.', toolCalls: [{ name: 'answer', arguments: { text: 'The Pharos of Alexandria.', source: 'memory' } }] },
      { text: 'Let me search first.', chunks: 6, toolCalls: [{ name: 'search', arguments: { query: 'oldest lighthouse' } }] },
      { toolCalls: [{ name: 'read', arguments: { id: 'tower-of-hercules' } }] },
      {
        text: 'The Tower of Hercules is the oldest lighthouse still in use.',
        chunks: 8,
        toolCalls: [{ name: 'answer', arguments: { text: 'The Tower of Hercules (1st century AD).', source: 'tower-of-hercules' } }],
      },
    ],
    { latencyMs: options.latencyMs ?? 0 },
  );
  return createAgent({
    name: 'researcher',
    model,
    instructions: 'Answer questions about history. Search, read, then answer with a source.',
    tools: [search, read, answer],
    toolRules: researchRules,
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
}
