import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { type McpHttpListener, mcpServer, serveMcp } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const listeners: McpHttpListener[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

function team() {
  const alice = createAgent({ name: 'alice', model: scriptedModel([{ text: 'Plan: fly to Lisbon.' }]) });
  const bob = createAgent({ name: 'bob', model: scriptedModel([{ text: 'Booked the flight.' }]) });
  return createGroupChat({ name: 'travel', agents: [alice, bob], speakerSelection: 'round_robin', maxRounds: 2 });
}

describe('serveMcp: agents and chats as MCP tools', () => {
  it('serves a chat over Streamable HTTP; progress notifications carry its turns', async () => {
    const helper = createAgent({ name: 'helper', model: scriptedModel([{ text: 'Happy to help.' }]) });
    const listener = await serveMcp({ agents: [helper], chats: [team()] }).serveHttp();
    listeners.push(listener);
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(listener.url);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['helper', 'travel']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { input: { type: 'string' } }, required: ['input'] });
    const progress: string[] = [];
    const result = await client.callTool({ name: 'travel', arguments: { input: 'Plan a trip.' } }, undefined, {
      onprogress: (update) => progress.push(update.message ?? ''),
    });
    expect(progress).toEqual(['alice: Plan: fly to Lisbon.', 'bob: Booked the flight.']);
    expect(result.content).toEqual([{ type: 'text', text: 'Booked the flight.' }]);
    expect(result.structuredContent).toMatchObject({ reason: 'max-rounds', lastSpeaker: 'bob', rounds: 2 });
    const answer = await client.callTool({ name: 'helper', arguments: { input: 'Hi' } });
    expect(answer.content).toEqual([{ type: 'text', text: 'Happy to help.' }]);
  });

  it('an agentchart agent uses a served agent through mcpServer', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks up.',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => `found ${q}`,
    });
    const researcher = createAgent({
      name: 'researcher',
      model: scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { q: 'MCP' } }] }, { text: 'MCP is a protocol.' }]),
      tools: [lookup],
    });
    const listener = await serveMcp({
      agents: [{ agent: researcher, toolName: 'ask_researcher', description: 'Researches a question.' }],
    }).serveHttp();
    listeners.push(listener);
    const remote = mcpServer({ name: 'remote', url: listener.url });
    const lead = createAgent({
      name: 'lead',
      model: scriptedModel([{ toolCalls: [{ name: 'ask_researcher', arguments: { input: 'What is MCP?' } }] }, { text: 'Done.' }]),
      toolSources: [remote],
    });
    try {
      const result = await lead.run('Find out what MCP is.').result;
      expect(result.toolCalls[0]).toMatchObject({ content: 'MCP is a protocol.', isError: false });
      expect((result.toolCalls[0]!.value as { structuredContent: unknown }).structuredContent).toEqual({
        stopReason: 'completed',
        steps: 2,
        toolCalls: ['lookup'],
      });
    } finally {
      await lead.close();
    }
  });

  it('cancelling the MCP request aborts the served run', async () => {
    let aborted = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Takes long.',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve('late'), 10_000);
          ctx.signal.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(timer);
            resolve('stopped');
          });
        }),
    });
    const worker = createAgent({
      name: 'worker',
      model: scriptedModel([{ toolCalls: [{ name: 'slow', arguments: {} }] }, { text: 'never' }]),
      tools: [slow],
    });
    const listener = await serveMcp({ agents: [worker] }).serveHttp();
    listeners.push(listener);
    const client = await connect(listener.url);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(client.callTool({ name: 'worker', arguments: { input: 'Go.' } }, undefined, { signal: controller.signal })).rejects.toThrow();
    for (let tries = 0; tries < 50 && !aborted; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(aborted).toBe(true);
  });

  it('a served chat whose agents both ask to approve `call_1`: each request is rejected as its own, nothing is paid, the chat goes on', async () => {
    const ledger: string[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ to: z.string() }),
      approval: 'always',
      execute: ({ to }) => {
        ledger.push(to);
        return `paid ${to}`;
      },
    });
    const payer = (name: string, to: string) =>
      createAgent({
        name,
        model: scriptedModel((request) =>
          request.messages.at(-1)?.role === 'tool'
            ? { text: `${name} was refused` }
            : { toolCalls: [{ id: 'call_1', name: 'pay', arguments: { to } }] },
        ),
        tools: [pay],
      });
    const chat = createGroupChat({
      name: 'payers',
      agents: [payer('payer', 'Bob'), payer('payer_b', 'Mallory')],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const listener = await serveMcp({ chats: [chat] }).serveHttp();
    listeners.push(listener);
    const client = await connect(listener.url);
    const result = await client.callTool({ name: 'payers', arguments: { input: 'Pay.' } });
    expect(result.structuredContent).toMatchObject({ reason: 'max-rounds', rounds: 2 });
    expect(result.content).toEqual([{ type: 'text', text: 'payer_b was refused' }]);
    expect(ledger).toEqual([]);
  });

  it('rejects a served set with a name used twice', () => {
    const one = createAgent({ name: 'same', model: scriptedModel([]) });
    const two = createAgent({ name: 'same', model: scriptedModel([]) });
    expect(() => serveMcp({ agents: [one, two] })).toThrow('serveMcp: two served agents or chats are named "same": give one a `toolName`.');
    expect(() => serveMcp({})).toThrow('serveMcp({ agents, chats }) needs at least one agent or group chat to serve.');
  });
});
