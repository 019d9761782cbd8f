import { request as httpRequest } from 'node:http';
import { createAgent } from '@agentchart/actors';
import { type McpHttpListener, type McpServerError, mcpServer, serveMcp } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestHttpServer, startHttpMcpServer } from '../mcp/httpMcpServer.js';
import { defineTool } from '@agentchart/core';
import { z } from 'zod';

const servers: (TestHttpServer | McpHttpListener)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A hostile server built with the SDK's low-level `Server`: its listing and calls are whatever the test says. */
async function hostile(
  list: (cursor: string | undefined) => Promise<unknown> | unknown,
  call: (name: string, args: unknown) => Promise<unknown> | unknown = () => ({ content: [] }),
) {
  const server = await startHttpMcpServer(() => {
    const sdk = new Server({ name: 'hostile', version: '1.0.0' }, { capabilities: { tools: {} } });
    sdk.setRequestHandler(ListToolsRequestSchema, async (request) => (await list(request.params?.cursor)) as never);
    sdk.setRequestHandler(CallToolRequestSchema, async (request) => (await call(request.params.name, request.params.arguments)) as never);
    return sdk;
  });
  servers.push(server);
  return server;
}

const objectSchema = (properties: Record<string, unknown> = {}, required: string[] = []) => ({ type: 'object', properties, required });

async function runCalls(url: string, calls: { name: string; arguments: Record<string, unknown> }[], options: Record<string, unknown> = {}) {
  const source = mcpServer({ name: 'hostile', url, ...options });
  const agent = createAgent({
    name: 'victim',
    model: scriptedModel([...calls.map((call) => ({ toolCalls: [call] })), { text: 'Done.' }]),
    toolSources: [source],
  });
  try {
    return await agent.run('Go.').result;
  } finally {
    await agent.close();
  }
}

describe('hostile MCP servers (a server built with the SDK on loopback)', () => {
  it('a server that always returns nextCursor: the listing stops at limits.maxPages with MCP_LIST_FAILED', async () => {
    let pages = 0;
    const server = await hostile((cursor) => {
      pages += 1;
      return { tools: [{ name: `tool_${pages}`, inputSchema: objectSchema() }], nextCursor: `${cursor ?? ''}x` };
    });
    const source = mcpServer({ name: 'hostile', url: server.url, limits: { maxPages: 5 } });
    try {
      const error = await source.loadTools().catch((caught: unknown) => caught);
      expect((error as McpServerError).code).toBe('MCP_LIST_FAILED');
      expect((error as Error).message).toContain('it sent more than 5 pages (`limits.maxPages`)');
      expect(pages).toBe(5);
    } finally {
      await source.close();
    }
  });

  it('more tools than limits.maxTools in one listing is MCP_LIST_FAILED', async () => {
    const server = await hostile(() => ({ tools: Array.from({ length: 30 }, (_, i) => ({ name: `t${i}`, inputSchema: objectSchema() })) }));
    const source = mcpServer({ name: 'hostile', url: server.url, limits: { maxTools: 10 } });
    try {
      await expect(source.loadTools()).rejects.toThrow('it offers more than 10 tools (`limits.maxTools`).');
    } finally {
      await source.close();
    }
  });

  it('a pattern like ^(a+)+$ does not freeze argument validation (RE2, linear time)', async () => {
    const server = await hostile(
      () => ({ tools: [{ name: 'match', inputSchema: objectSchema({ text: { type: 'string', pattern: '^(a+)+$' } }, ['text']) }] }),
      () => ({ content: [{ type: 'text', text: 'matched' }] }),
    );
    const started = performance.now();
    const result = await runCalls(server.url, [
      { name: 'match', arguments: { text: `${'a'.repeat(5_000)}b` } },
      { name: 'match', arguments: { text: 'aaaa' } },
    ]);
    const elapsed = performance.now() - started;
    expect(result.toolCalls.map((record) => record.isError)).toEqual([true, false]);
    expect(result.toolCalls[0]?.content).toContain('must match pattern "^(a+)+$"');
    expect(result.toolCalls[1]?.content).toBe('matched');
    // Backtracking on 5,000 characters would take longer than the universe has existed; RE2 takes microseconds.
    expect(elapsed).toBeLessThan(20_000);
  });

  it('a large result is cut with a note for the model and in the value (limits.maxResultChars)', async () => {
    const server = await hostile(
      () => ({ tools: [{ name: 'dump', inputSchema: objectSchema() }] }),
      () => ({ content: [{ type: 'text', text: 'x'.repeat(200_000) }] }),
    );
    const result = await runCalls(server.url, [{ name: 'dump', arguments: {} }], { limits: { maxResultChars: 1_000 } });
    const record = result.toolCalls[0]!;
    expect(record.content).toBe(`${'x'.repeat(1_000)}… [199000 more characters cut: limits.maxResultChars is 1000]`);
    expect(record.value).toEqual({ content: [{ type: 'text', text: record.content }], cut: true });
  });

  it("a 4 MB input schema is that tool's MCP_TOOL_SCHEMA_INVALID, refused before compiling; a filter leaves it out", async () => {
    const huge = objectSchema(
      Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`p${i}`, { type: 'string', description: 'y'.repeat(40) }])),
    );
    expect(JSON.stringify(huge).length).toBeGreaterThan(4_000_000);
    const server = await hostile(() => ({
      tools: [
        { name: 'huge', inputSchema: huge },
        { name: 'small', inputSchema: objectSchema() },
      ],
    }));
    const all = mcpServer({ name: 'hostile', url: server.url });
    const filtered = mcpServer({ name: 'hostile', url: server.url, filter: (tool) => tool.name !== 'huge' });
    try {
      const error = await all.loadTools().catch((caught: unknown) => caught);
      expect((error as McpServerError).code).toBe('MCP_TOOL_SCHEMA_INVALID');
      expect((error as Error).message).toMatch(
        /tool "huge": the input schema has \d+ characters, more than the 262144 allowed \(`limits.maxSchemaChars`\)/,
      );
      const tools = await filtered.loadTools();
      expect(tools.map((tool) => tool.name)).toEqual(['small']);
    } finally {
      await all.close();
      await filtered.close();
    }
  });

  it('a schema nested deeper than limits.maxSchemaDepth is refused for that tool', async () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { next: deep } };
    const server = await hostile(() => ({ tools: [{ name: 'deep', inputSchema: deep }] }));
    const source = mcpServer({ name: 'hostile', url: server.url });
    try {
      await expect(source.loadTools()).rejects.toThrow('the input schema is nested more than 32 levels deep (`limits.maxSchemaDepth`)');
    } finally {
      await source.close();
    }
  });

  it('a tool whose input schema is not an object is refused alone (MCP_TOOL_SCHEMA_INVALID), so a filter can leave it out', async () => {
    const server = await hostile(() => ({
      tools: [
        { name: 'odd', inputSchema: { type: 'string' } },
        { name: 'fine', inputSchema: objectSchema() },
      ],
    }));
    const all = mcpServer({ name: 'hostile', url: server.url });
    const filtered = mcpServer({ name: 'hostile', url: server.url, filter: ['fine'] });
    try {
      const error = await all.loadTools().catch((caught: unknown) => caught);
      expect((error as McpServerError).code).toBe('MCP_TOOL_SCHEMA_INVALID');
      expect((error as McpServerError).details).toMatchObject({ tool: 'odd' });
      expect((await filtered.loadTools()).map((tool) => tool.name)).toEqual(['fine']);
    } finally {
      await all.close();
      await filtered.close();
    }
  });

  it("a tools/list that never answers fails after timeoutMs, not the SDK's fixed 60 s", async () => {
    const server = await hostile(() => new Promise(() => {}));
    const source = mcpServer({ name: 'hostile', url: server.url, timeoutMs: 300 });
    try {
      const started = performance.now();
      const error = await source.loadTools().catch((caught: unknown) => caught);
      expect((error as McpServerError).code).toBe('MCP_LIST_FAILED');
      expect((error as Error).message).toContain('no answer within 300 ms (`timeoutMs`).');
      expect(performance.now() - started).toBeLessThan(30_000);
    } finally {
      await source.close();
    }
  });

  it('a property named toString or constructor does not fail calls that omit it', async () => {
    const server = await hostile(
      () => ({
        tools: [
          {
            name: 'fmt',
            inputSchema: objectSchema({ toString: { type: 'string' }, constructor: { type: 'number' }, value: { type: 'number' } }, ['value']),
          },
        ],
      }),
      (_name, args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
    );
    const result = await runCalls(server.url, [{ name: 'fmt', arguments: { value: 1 } }]);
    expect(result.toolCalls[0]).toMatchObject({ isError: false, content: '{"value":1}' });
  });

  it('JSON-RPC error -32000 from the server keeps its code and message (not reported as a crash)', async () => {
    const server = await hostile(
      () => ({ tools: [{ name: 'limited', inputSchema: objectSchema() }] }),
      () => {
        throw new McpError(-32000, 'Rate limit reached: retry in 5 s');
      },
    );
    const result = await runCalls(server.url, [{ name: 'limited', arguments: {} }]);
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.content).toBe(
      'MCP server "hostile" refused the call of "limited" (JSON-RPC error -32000): MCP error -32000: Rate limit reached: retry in 5 s',
    );
  });

  it('structured content that breaks the output schema is an error result; a matching one is kept', async () => {
    const server = await hostile(
      () => ({
        tools: [
          {
            name: 'temp',
            inputSchema: objectSchema({ city: { type: 'string' } }),
            outputSchema: objectSchema({ celsius: { type: 'number' } }, ['celsius']),
          },
        ],
      }),
      (_name, args) => {
        const { city } = args as { city: string };
        return city === 'Atlantis'
          ? { content: [{ type: 'text', text: 'wet' }], structuredContent: { celsius: 'very wet' } }
          : { content: [{ type: 'text', text: '21' }], structuredContent: { celsius: 21 } };
      },
    );
    const result = await runCalls(server.url, [
      { name: 'temp', arguments: { city: 'Lisbon' } },
      { name: 'temp', arguments: { city: 'Atlantis' } },
    ]);
    expect(result.toolCalls.map((record) => [record.isError, record.content])).toEqual([
      [false, '21'],
      [true, 'MCP server "hostile" answered "temp" with a result that breaks the tool\'s output schema: /celsius must be number.'],
    ]);
  });
});

describe('serveMcp().serveHttp() against hostile clients', () => {
  const agent = () => createAgent({ name: 'helper', model: scriptedModel(Array.from({ length: 10 }, () => ({ text: 'Hello.' }))) });
  const initialize = (url: string, headers: Record<string, string> = {}) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });

  it('refuses a Host or Origin of another site (DNS rebinding), as the live view does', async () => {
    const listener = await serveMcp({ agents: [agent()] }).serveHttp();
    servers.push(listener);
    const port = new URL(listener.url).port;
    // fetch() sets Host itself: a raw request names another site, as a rebound DNS name would.
    const rebound = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        listener.url,
        { method: 'POST', headers: { host: `evil.example:${port}`, 'content-type': 'application/json' } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end('{}');
    });
    expect(rebound).toBe(421);
    const foreign = await initialize(listener.url, { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).toBe('This MCP server does not answer pages from other origins (`allowedOrigins`).');
    const local = await initialize(listener.url, { origin: `http://localhost:${port}` });
    expect(local.status).toBe(200);
  });

  it('caps sessions (maxSessions) and closes idle ones (sessionIdleMs)', async () => {
    const listener = await serveMcp({ agents: [agent()] }).serveHttp({ maxSessions: 2, sessionIdleMs: 300 });
    servers.push(listener);
    expect((await initialize(listener.url)).status).toBe(200);
    expect((await initialize(listener.url)).status).toBe(200);
    const third = await initialize(listener.url);
    expect(third.status).toBe(503);
    expect(listener.sessions).toBe(2);
    for (let tries = 0; tries < 100 && listener.sessions > 0; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(listener.sessions).toBe(0);
    expect((await initialize(listener.url)).status).toBe(200);
  });

  it('bounds concurrent runs (maxConcurrentRuns): a call beyond them is an error result at once', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const wait = defineTool({
      name: 'wait',
      description: 'Waits.',
      parameters: z.object({}),
      execute: async () => {
        await gate;
        return 'ok';
      },
    });
    const slow = createAgent({
      name: 'slow',
      model: scriptedModel([{ toolCalls: [{ name: 'wait', arguments: {} }] }, { text: 'Finished.' }]),
      tools: [wait],
    });
    const listener = await serveMcp({ agents: [slow], maxConcurrentRuns: 1 }).serveHttp();
    servers.push(listener);
    const first = new Client({ name: 'a', version: '1' });
    const second = new Client({ name: 'b', version: '1' });
    await first.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    await second.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      const running = first.callTool({ name: 'slow', arguments: { input: 'Go.' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await second.callTool({ name: 'slow', arguments: { input: 'Go too.' } });
      expect(refused).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'The server is running 1 tasks already (`maxConcurrentRuns`): try again when one has finished.' }],
      });
      release();
      expect((await running).content).toEqual([{ type: 'text', text: 'Finished.' }]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
