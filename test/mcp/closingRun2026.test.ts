import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createAgent, createGroupChat } from '@agentchart/actors';
import { mcpServer, serveMcp } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer, acceptedContent, createMcpHandler, inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * The run the closing note quotes: an agent using a server that speaks only
 * 2026-07-28 (`createMcpHandler(…, { legacy: 'reject' })` of the v2 server
 * SDK), whose tool asks a person for input; and a chat served by `serveMcp`
 * to a client that speaks only 2026-07-28. It prints what happened.
 */
function strictModernServer() {
  const seat = z.object({ seat: z.string() });
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'airline-2026', version: '1.0.0' });
      server.registerTool(
        'book',
        { description: 'Books a flight; asks for a seat.', inputSchema: z.object({ flight: z.string() }) },
        async ({ flight }, ctx) => {
          const answer = acceptedContent(ctx.mcpReq.inputResponses, 'seat', seat);
          if (answer !== undefined) {
            const version = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/protocolVersion'];
            return { content: [{ type: 'text', text: `Booked ${flight}, seat ${answer.seat} (protocol ${version}).` }] };
          }
          return inputRequired({ inputRequests: { seat: inputRequired.elicit({ message: `Which seat on ${flight}?`, requestedSchema: seat }) } });
        },
      );
      return server;
    },
    { legacy: 'reject' },
  );
  const http = createServer((req, res) => void serve(req, res));
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method ?? 'POST',
      headers,
      ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
    });
    const response = await handler.fetch(request);
    const head: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      head[name] = value;
    });
    res.writeHead(response.status, head);
    if (response.body === null) return void res.end();
    for await (const chunk of Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>)) res.write(chunk);
    res.end();
  };
  return new Promise<{ url: string; close(): Promise<void> }>((resolve) =>
    http.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
        close: async () => {
          await handler.close();
          http.closeAllConnections();
          await new Promise<void>((done) => http.close(() => done()));
        },
      }),
    ),
  );
}

describe('the closing run: MCP 2026-07-28 in both directions', () => {
  it('an agent uses a 2026-07-28-only server (a person answers its input request); a chat is served to a 2026-07-28-only client', async () => {
    const out: string[] = [];
    const print = (line: string) => out.push(line);
    const remote = await strictModernServer();
    const legacyClient = new Client({ name: 'legacy-only', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    const refused = await legacyClient.connect(new StreamableHTTPClientTransport(new URL(remote.url))).then(
      () => 'connected',
      (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 120),
    );
    print(`[a 2026-07-28-only server at ${remote.url.replace(/:\d+\//, ':<port>/')}]`);
    print(`a 2025-11-25 client: ${refused === 'connected' ? 'connected' : `refused (${refused})`}`);
    const server = mcpServer({ name: 'airline', url: remote.url, onInputRequest: 'person' });
    const agent = createAgent({
      name: 'booker',
      model: scriptedModel([{ toolCalls: [{ id: 'c1', name: 'book', arguments: { flight: 'TP123' } }] }, { text: 'Booked TP123, seat 12A.' }]),
      toolSources: [server],
    });
    try {
      const run = agent.run('Book TP123.');
      run.events$.subscribe((event) => {
        if (event.type === 'tool.call') print(`booker calls ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
        if (event.type === 'input.requested') {
          print(`input.requested: "${event.message}" (schema ${JSON.stringify(event.requestedSchema.properties)})`);
          print("the person answers: run.answer(id, { action: 'accept', content: { seat: '12A' } })");
          queueMicrotask(() => run.answer(event.id, { action: 'accept', content: { seat: '12A' } }));
        }
        if (event.type === 'input.answered') print(`input.answered: ${event.action}`);
        if (event.type === 'tool.result') print(`-> ${event.content}`);
      });
      const result = await run.result;
      print(`agent answers: ${result.text} (${result.stopReason}, ${result.steps} steps)`);
      expect(refused).not.toBe('connected');
      expect(result.toolCalls.map((record) => record.content)).toEqual(['Booked TP123, seat 12A (protocol 2026-07-28).']);
    } finally {
      await agent.close();
      await remote.close();
    }

    const alice = createAgent({ name: 'alice', model: scriptedModel(() => ({ text: 'Plan: fly to Lisbon.' })) });
    const bob = createAgent({ name: 'bob', model: scriptedModel(() => ({ text: 'Booked the flight.' })) });
    const chat = createGroupChat({ name: 'travel', agents: [alice, bob], speakerSelection: 'round_robin', maxRounds: 2 });
    const listener = await serveMcp({ chats: [chat] }).serveHttp();
    const client = new Client({ name: 'modern-only', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      print('[a chat served by serveMcp to a 2026-07-28-only client]');
      print(`connected over ${client.getProtocolEra()} ${client.getNegotiatedProtocolVersion()}, sessions: ${listener.sessions}`);
      const { tools } = await client.listTools();
      print(`tools/list: ${tools.map((tool) => tool.name).join(', ')}`);
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'travel', arguments: { input: 'Plan a trip.' } },
        { onprogress: (update) => void progress.push(update.message ?? '') },
      );
      for (const line of progress) print(`progress: ${line}`);
      print(`result: ${JSON.stringify(result.content)}`);
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(result.content).toEqual([{ type: 'text', text: 'Booked the flight.' }]);
    } finally {
      await client.close();
      await listener.close();
    }
    console.log(out.join('\n'));
    expect(out).toContain('input.answered: accept');
  });
});
