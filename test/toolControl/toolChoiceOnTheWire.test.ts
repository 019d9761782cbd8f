import { defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { ollama, openai } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startOllamaServer } from '../providers/wire/ollamaWire.js';
import { startOpenAIServer } from '../providers/wire/openaiWire.js';
import type { WireServer } from '../providers/wire/wireServer.js';

const getRecord = defineTool({
  name: 'get_record',
  description: 'Fetches a record.',
  parameters: z.object({ record_id: z.string() }),
  execute: ({ record_id }) => `Record ${record_id}: open`,
});
const updateRecord = defineTool({
  name: 'update_record',
  description: 'Updates a record.',
  parameters: z.object({ record_id: z.string(), status: z.string() }),
  execute: ({ record_id, status }) => `Updated ${record_id} to ${status}`,
});
const forced = { mode: 'required', requiredFunctionName: 'get_record' } as const;

describe('toolChoice reaches each provider in its own form', () => {
  let server: WireServer | undefined;
  afterEach(() => server?.close());

  it('OpenAI-compatible: tool_choice names the function on the first call, then auto', async () => {
    server = await startOpenAIServer();
    server.script({ toolCalls: [{ name: 'get_record', arguments: { record_id: 'REC-42' } }] }, { text: ['Done.'] });
    const model = openai({ model: 'qwen3', baseURL: `${server.url}/v1`, apiKey: 'test', maxRetries: 0 });
    const agent = createAgent({ name: 'records', model, tools: [getRecord, updateRecord] });
    const result = await agent.run('Update REC-42', { toolChoice: forced }).result;

    expect(result.text).toBe('Done.');
    const bodies = server.requests.map((request) => request.body as { tool_choice?: unknown; tools?: { function: { name: string } }[] });
    expect(bodies.map((body) => body.tool_choice)).toEqual([{ type: 'function', function: { name: 'get_record' } }, 'auto']);
    // The provider also narrows the offer to the forced tool.
    expect(bodies.map((body) => body.tools?.map((tool) => tool.function.name))).toEqual([['get_record'], ['get_record', 'update_record']]);
  });

  it('Ollama: the first call is constrained to a get_record call by a JSON schema, the next is free', async () => {
    server = await startOllamaServer();
    server.script({ text: ['{"name":"get_record","arguments":{"record_id":"REC-42"}}'] }, { text: ['Done.'] });
    const model = ollama({ model: 'qwen3', host: server.url, maxRetries: 0 });
    const agent = createAgent({ name: 'records', model, tools: [getRecord, updateRecord] });
    const result = await agent.run('Update REC-42', { toolChoice: forced }).result;

    expect(result.toolCalls.map((record) => record.content)).toEqual(['Record REC-42: open']);
    const bodies = server.requests.map((request) => request.body as { format?: { properties?: { name?: unknown } } });
    expect(bodies[0]?.format?.properties?.name).toEqual({ type: 'string', const: 'get_record' });
    expect(bodies[1]?.format).toBeUndefined();
  });
});
