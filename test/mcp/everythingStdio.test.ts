import { createAgent } from '@agentchart/actors';
import { ToolError, directToolContext } from '@agentchart/core';
import { type McpServer, mcpServer, mcpToolOrigin } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { collectEvents, everythingServer } from './mcpTestServers.js';

const servers: McpServer[] = [];
const everything = (options: Record<string, unknown> = {}) => {
  const server = mcpServer({ name: 'everything', ...everythingServer(), ...options });
  servers.push(server);
  return server;
};
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('mcpServer over stdio (server-everything)', () => {
  it('lists the server tools with their schemas and annotations', async () => {
    const tools = await everything().loadTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
    const sum = tools.find((tool) => tool.name === 'get-sum');
    expect(sum?.spec.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(sum?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(mcpToolOrigin(sum!)).toMatchObject({ serverName: 'everything', mcpToolName: 'get-sum' });
  });

  it('calls a tool in a run and the model reads its text', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }] }, { text: 'Five.' }]);
    const agent = createAgent({ name: 'adder', model, toolSources: [everything()] });
    const result = await agent.run('2 + 3?').result;
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls[0]).toMatchObject({ content: 'The sum of 2 and 3 is 5.', isError: false });
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toContain('get-sum');
  });

  it('validates arguments against the JSON Schema before calling', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'get-sum', arguments: { a: 'two', b: 3 } }] }, { text: 'Oops.' }]);
    const agent = createAgent({ name: 'adder', model, toolSources: [everything()] });
    const result = await agent.run('2 + 3?').result;
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.content).toContain('a');
    expect(result.toolCalls[0]?.content).toContain('must be number');
  });
});
