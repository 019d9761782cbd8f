import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent, createGroupChat } from '@agentchart/actors';
import { type McpHttpListener, serveMcp } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const listeners: McpHttpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
});

function team() {
  const alice = createAgent({ name: 'alice', model: scriptedModel(() => ({ text: 'Plan: fly to Lisbon.' })) });
  const bob = createAgent({ name: 'bob', model: scriptedModel(() => ({ text: 'Booked the flight.' })) });
  return createGroupChat({ name: 'travel', agents: [alice, bob], speakerSelection: 'round_robin', maxRounds: 2 });
}

/** A v2 SDK client that speaks only the given line (`legacy`: 2025-11-25 with `initialize`). */
function v2Client(line: '2026-07-28' | 'legacy'): Client {
  return new Client({ name: 'test-client', version: '2.0.0' }, { versionNegotiation: { mode: line === 'legacy' ? 'legacy' : { pin: line } } });
}

async function callTravel(client: Client, print: (line: string) => void) {
  const { tools } = await client.listTools();
  print(`tools/list: ${tools.map((tool) => tool.name).join(', ')}`);
  const progress: string[] = [];
  const result = await client.callTool(
    { name: 'travel', arguments: { input: 'Plan a trip.' } },
    { onprogress: (update) => void progress.push(update.message ?? '') },
  );
  for (const line of progress) print(`progress: ${line}`);
  print(`result: ${JSON.stringify(result.content)} ${JSON.stringify(result.structuredContent)}`);
  return { tools, progress, result };
}

describe('serveMcp answers clients of both protocol lines (the v2 client SDK)', () => {
  for (const line of ['2026-07-28', 'legacy'] as const) {
    it(`over Streamable HTTP to a ${line} client: the chat's turns as progress, its last message as the result`, async () => {
      const listener = await serveMcp({ chats: [team()] }).serveHttp();
      listeners.push(listener);
      const client = v2Client(line);
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      const transcript: string[] = [`connected over ${client.getProtocolEra()} ${client.getNegotiatedProtocolVersion()}`];
      try {
        const { tools, progress, result } = await callTravel(client, (text) => transcript.push(text));
        expect(client.getProtocolEra()).toBe(line === 'legacy' ? 'legacy' : 'modern');
        expect(client.getNegotiatedProtocolVersion()).toBe(line === 'legacy' ? '2025-11-25' : '2026-07-28');
        expect(tools.map((tool) => tool.name)).toEqual(['travel']);
        expect(progress).toEqual(['alice: Plan: fly to Lisbon.', 'bob: Booked the flight.']);
        expect(result.content).toEqual([{ type: 'text', text: 'Booked the flight.' }]);
        expect(listener.sessions).toBe(line === 'legacy' ? 1 : 0);
      } finally {
        await client.close();
      }
      console.log(`[served over HTTP to a ${line} client]\n${transcript.join('\n')}`);
    });
  }

  it('`agentchart mcp serve --module` over stdio to a 2026-07-28 client', { timeout: 60_000 }, async () => {
    const client = v2Client('2026-07-28');
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(root, 'packages/examples/bin/agentchart.mjs'), 'mcp', 'serve', '--module', join(root, 'test/mcp/fixtures/team.ts')],
        cwd: root,
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['greeter', 'desk']);
      const result = await client.callTool({ name: 'desk', arguments: { input: 'Write.' } });
      expect(result.content).toEqual([{ type: 'text', text: 'An edited draft.' }]);
      console.log(
        `[agentchart mcp serve to a 2026-07-28 client over stdio]\nconnected over ${client.getNegotiatedProtocolVersion()}\ntools/list: ${tools.map((tool) => tool.name).join(', ')}\nresult: ${JSON.stringify(result.content)} ${JSON.stringify(result.structuredContent)}`,
      );
    } finally {
      await client.close();
    }
  });
});
