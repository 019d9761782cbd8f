// A user's TypeScript file on the main API, type-checked with strict,
// exactOptionalPropertyTypes and skipLibCheck: false (the library's .d.ts too).
import { type AgentRun, createAgent, createGroupChat, type RunResult } from '@agentchart/actors';
import { type ChatModel, defineTool, rules, ToolError } from '@agentchart/core';
import { ollama, openai, scriptedModel } from '@agentchart/providers';
import { createTraceRecorder, memorySink } from '@agentchart/inspect';
import { type OpenApiDocument, toolsFromOpenAPI } from '@agentchart/tools';
import { z } from 'zod';

const search = defineTool({
  name: 'search',
  description: 'Finds a fact.',
  parameters: z.object({ query: z.string().min(1) }),
  execute: ({ query }) => {
    if (query === 'nothing') throw new ToolError('Search for something.');
    return `Found: ${query}`;
  },
});
const answer = defineTool({
  name: 'answer',
  description: 'Gives the final answer.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const model: ChatModel = scriptedModel([{ toolCalls: [{ name: 'search', arguments: { query: 'hearts' } }] }, { text: 'Three.' }]);
const local: ChatModel = ollama({ model: 'qwen3:4b', host: 'http://127.0.0.1:11434' });
const remote: ChatModel = openai({ model: 'gpt-4o-mini', baseURL: 'http://127.0.0.1:8000/v1', apiKey: 'none' });

const agent = createAgent({
  name: 'researcher',
  model,
  instructions: 'Search, then answer.',
  tools: [search, answer],
  toolRules: [rules.init('search'), rules.terminal('answer')],
  maxSteps: 6,
});
const petstore: OpenApiDocument = { openapi: '3.0.3', servers: [{ url: 'https://petstore.example/api' }], paths: {} };
const apiAgent = createAgent({ name: 'clerk', model, tools: toolsFromOpenAPI(petstore, { timeoutMs: 5_000 }) });
const run: AgentRun = agent.run('How many hearts does an octopus have?');
const subscription = run.events$.subscribe((event) => console.log(event.type));
const result: RunResult = await run.result;
subscription.unsubscribe();
const stopReason: string | undefined = result.stopReason;

const recorder = createTraceRecorder({ sink: memorySink(), title: 'consumer' });
const chat = createGroupChat({
  agents: [createAgent({ name: 'writer', model: local }), createAgent({ name: 'critic', model: remote })],
  speakerSelection: 'round_robin',
  maxRounds: 2,
});
const chatResult = await chat.run('Write a haiku.').result;
console.log(stopReason, chatResult.reason, chatResult.rounds, recorder, apiAgent.name);
