import { type ChatModel, type ToolChoice, defineTool } from '@agentchart/core';
import { ollama, openai } from '@agentchart/providers';
import { z } from 'zod';
import { ollamaModelNotFound, startOllamaServer } from './ollamaWire.js';
import { openaiModelNotFound, startOpenAIServer } from './openaiWire.js';
import type { WireServer, WireTurn } from './wireServer.js';

export const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export const multiply = defineTool({
  name: 'multiply',
  description: 'Multiplies two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

/** What the contract suite needs to know about one provider and its wire protocol. */
export interface ProviderAdapter {
  name: 'ollama' | 'openai';
  startServer(): Promise<WireServer>;
  /** The provider pointed at a URL (retries off unless given; `'default'` keeps the provider's default). */
  model(url: string, options?: { model?: string; maxRetries?: number | 'default' }): ChatModel;
  chatPath: string;
  notFound(model: string): WireTurn;
  serverError(message: string): WireTurn;
  /** The protocol's fields that carry tool choice, from a recorded body. */
  toolSelection(body: unknown): unknown;
  /** The ids the provider gives the calls of a reply, given the number of assistant turns before it. */
  callIds(turn: number, serverIds: string[]): string[];
}

const retries = (maxRetries: number | 'default' | undefined) => (maxRetries === 'default' ? {} : { maxRetries: maxRetries ?? 0 });

type Body = Record<string, unknown> & { tools?: Array<{ function: { name: string } }> };
const toolNames = (body: Body) => body.tools?.map((tool) => tool.function.name);

export const ollamaAdapter: ProviderAdapter = {
  name: 'ollama',
  startServer: startOllamaServer,
  model: (url, options = {}) => ollama({ model: options.model ?? 'qwen3', host: url, ...retries(options.maxRetries) }),
  chatPath: '/api/chat',
  notFound: ollamaModelNotFound,
  serverError: (message) => ({ httpError: { status: 500, body: { error: message } } }),
  toolSelection: (body) => ({ tools: toolNames(body as Body), format: (body as Body).format }),
  callIds: (turn, serverIds) => serverIds.map((_, index) => `ollama_${turn}_${index}`),
};

export const openaiAdapter: ProviderAdapter = {
  name: 'openai',
  startServer: () => startOpenAIServer(),
  model: (url, options = {}) => openai({ model: options.model ?? 'qwen3', baseURL: `${url}/v1`, ...retries(options.maxRetries) }),
  chatPath: '/v1/chat/completions',
  notFound: openaiModelNotFound,
  serverError: (message) => ({ httpError: { status: 500, body: { error: { message, type: 'server_error', code: null } } } }),
  toolSelection: (body) => ({ tools: toolNames(body as Body), tool_choice: (body as Body).tool_choice }),
  callIds: (_turn, serverIds) => serverIds,
};

/** The wire fields each protocol uses for each tool choice, for `add` and `multiply` offered. */
export const expectedToolSelection: Record<ProviderAdapter['name'], Record<string, unknown>> = {
  ollama: {
    auto: { tools: ['add', 'multiply'], format: undefined },
    none: { tools: undefined, format: undefined },
    required: {
      tools: ['add', 'multiply'],
      format: { anyOf: [callSchema('add'), callSchema('multiply')] },
    },
    named: { tools: ['multiply'], format: callSchema('multiply') },
  },
  openai: {
    auto: { tools: ['add', 'multiply'], tool_choice: 'auto' },
    none: { tools: undefined, tool_choice: undefined },
    required: { tools: ['add', 'multiply'], tool_choice: 'required' },
    named: { tools: ['multiply'], tool_choice: { type: 'function', function: { name: 'multiply' } } },
  },
};

export const toolChoices: Record<string, ToolChoice> = {
  auto: 'auto',
  none: 'none',
  required: 'required',
  named: { type: 'tool', name: 'multiply' },
};

function callSchema(name: 'add' | 'multiply') {
  return {
    type: 'object',
    properties: { name: { type: 'string', const: name }, arguments: (name === 'add' ? add : multiply).jsonSchema },
    required: ['name', 'arguments'],
    additionalProperties: false,
  };
}

export const adapters: ProviderAdapter[] = [ollamaAdapter, openaiAdapter];
