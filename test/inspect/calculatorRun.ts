import { defineTool } from '@agentchart/core';
import { createAgent, type AgentOptions } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

/** A tool whose arguments carry a secret, to check that inspection never sends it. */
export const lookup = defineTool({
  name: 'lookup',
  description: 'Looks up a record with an access token.',
  parameters: z.object({ query: z.string(), token: z.string() }),
  execute: ({ query }) => ({ query, rows: 3 }),
});

export const SECRET = 'tok-very-secret-123';

/** A calculator-like agent on the scripted model: one tool call, then the answer. */
export function lookupAgent(options: Partial<AgentOptions> = {}) {
  return createAgent({
    name: 'librarian',
    model: scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { query: 'books', token: SECRET } }] }, { text: 'There are 3 books.' }]),
    instructions: 'Use the tools.',
    tools: [lookup],
    ...options,
  });
}
