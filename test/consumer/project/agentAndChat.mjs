// A user's plain ESM script: an agent with two tools and tool rules, then a
// two-agent group chat, both on the scripted model, and tools made from an
// OpenAPI document. Prints their results.
import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool, rules } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { toolsFromOpenAPI } from '@agentchart/tools';
import { z } from 'zod';

const search = defineTool({
  name: 'search',
  description: 'Finds a fact.',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `An octopus has three hearts (${query}).`,
});
const answer = defineTool({
  name: 'answer',
  description: 'Gives the final answer.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const agent = createAgent({
  name: 'researcher',
  instructions: 'Search, then answer.',
  tools: [search, answer],
  toolRules: [rules.init('search'), rules.child('search', ['answer']), rules.terminal('answer')],
  model: scriptedModel([
    { toolCalls: [{ name: 'answer', arguments: { text: 'guess' } }] },
    { toolCalls: [{ name: 'search', arguments: { query: 'octopus hearts' } }] },
    { toolCalls: [{ name: 'answer', arguments: { text: 'Three hearts.' } }] },
  ]),
});
const run = await agent.run('How many hearts does an octopus have?').result;
console.log(
  `agent: ${run.stopReason}; answer: ${run.toolCalls.at(-1)?.value}; calls: ${run.toolCalls.map((record) => `${record.call.name}${record.refusedBy ? ` (refused by ${record.refusedBy})` : ''}`).join(', ')}`,
);

const chat = createGroupChat({
  agents: [
    createAgent({ name: 'writer', model: scriptedModel([{ text: 'Draft: three hearts.' }]) }),
    createAgent({ name: 'critic', model: scriptedModel([{ text: 'APPROVED' }]) }),
  ],
  speakerSelection: 'round_robin',
  terminate: 'APPROVED',
  maxRounds: 4,
});
const chatResult = await chat.run('How many hearts does an octopus have?').result;
console.log(`chat: ${chatResult.reason}; rounds: ${chatResult.rounds}; last: ${chatResult.lastSpeaker}`);
const petTools = toolsFromOpenAPI({
  openapi: '3.0.3',
  servers: [{ url: 'http://127.0.0.1:9/api' }],
  paths: {
    '/pets/{petId}': {
      get: { operationId: 'getPet', parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }] },
    },
  },
});
console.log(`openapi tools: ${petTools.map((tool) => `${tool.name}(${Object.keys(tool.jsonSchema.properties ?? {}).join(', ')})`).join(', ')}`);
console.log(`node ${process.versions.node}`);
