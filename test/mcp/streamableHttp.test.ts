import { ToolSourceError, createAgent, createGroupChat } from '@agentchart/actors';
import { type RunEvent, rules } from '@agentchart/core';
import { type McpServer, McpServerError, mcpServer } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type TestHttpServer, startHttpMcpServer } from './httpMcpServer.js';
import { collectEvents } from './mcpTestServers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the test servers saw, across sessions. */
const seen = { cancelled: [] as string[], calls: [] as string[] };

/**
 * A records server: `lookup` reads, `find` fails with isError, `unlock` adds
 * `vault`, `lock` removes it, `wait` runs until cancelled. List changes are
 * announced before the result (as a server does that changes its list inside a call).
 */
function recordsServer(options: { withVault?: boolean } = {}): SdkMcpServer {
  const server = new SdkMcpServer({ name: 'records', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const vault = () =>
    server.registerTool('vault', { description: 'Opens the vault.', inputSchema: {} }, async () => ({
      content: [{ type: 'text', text: 'The vault is open.' }],
    }));
  let registeredVault = options.withVault ? vault() : undefined;
  server.registerTool(
    'lookup',
    { description: 'Looks a record up.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } },
    async ({ id }) => {
      seen.calls.push(`lookup ${id}`);
      return {
        content: [{ type: 'text', text: `Record ${id}: active` }],
        structuredContent: { id, status: 'active' },
        _meta: { 'records/version': 7 },
      };
    },
  );
  server.registerTool('whoami', { description: 'Tells who the caller is.', inputSchema: {} }, async (_args, extra) => ({
    content: [{ type: 'text', text: `You sent authorization: ${String(extra.requestInfo?.headers.authorization)}` }],
  }));
  server.registerTool('find', { description: 'Finds records.', inputSchema: { query: z.string() } }, async ({ query }) => ({
    isError: true,
    content: [{ type: 'text', text: `No record matches "${query}": search by an id like REC-1.` }],
  }));
  server.registerTool('unlock', { description: 'Unlocks the vault tool.', inputSchema: {} }, async () => {
    registeredVault ??= vault();
    await sleep(150);
    return { content: [{ type: 'text', text: 'Unlocked.' }] };
  });
  server.registerTool('lock', { description: 'Locks the vault tool away.', inputSchema: {} }, async () => {
    registeredVault?.remove();
    registeredVault = undefined;
    await sleep(150);
    return { content: [{ type: 'text', text: 'Locked.' }] };
  });
  server.registerTool('wait', { description: 'Waits until cancelled.', inputSchema: {} }, async (_args, extra) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 10_000);
      extra.signal.addEventListener('abort', () => {
        seen.cancelled.push(String(extra.requestId));
        clearTimeout(timer);
        resolve();
      });
    });
    return { content: [{ type: 'text', text: 'Waited.' }] };
  });
  return server;
}

const started: TestHttpServer[] = [];
const clients: McpServer[] = [];
async function serve(build: () => SdkMcpServer | Server, options: Parameters<typeof startHttpMcpServer>[1] = {}) {
  const server = await startHttpMcpServer(build, options);
  started.push(server);
  return server;
}
function client(options: Parameters<typeof mcpServer>[0]) {
  const made = mcpServer(options);
  clients.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((made) => made.close()));
});
afterAll(async () => {
  await Promise.all(started.map((server) => server.close()));
});

describe('mcpServer over Streamable HTTP (an SDK server in the test)', () => {
  it('calls tools with the headers; structured content and _meta are kept for the program', async () => {
    const http = await serve(() => recordsServer(), { authorization: 'Bearer tok-9f8e7d6c5b' });
    const records = client({ name: 'records', url: http.url, headers: { authorization: 'Bearer tok-9f8e7d6c5b' } });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'lookup', arguments: { id: 'REC-1' } },
          { name: 'whoami', arguments: {} },
        ],
      },
      { text: 'Active.' },
    ]);
    const run = createAgent({ name: 'clerk', model, toolSources: [records] }).run('Status of REC-1?');
    const events = collectEvents(run);
    const result = await run.result;
    // A server that echoes the credential does not show it to the model or in events.
    expect(result.toolCalls[1]?.content).toBe('You sent authorization: [redacted]');
    expect(JSON.stringify(model.requests)).not.toContain('tok-9f8e7d6c5b');
    expect(JSON.stringify(await events)).not.toContain('tok-9f8e7d6c5b');
    expect(result.toolCalls[0]).toMatchObject({
      content: 'Record REC-1: active',
      isError: false,
      value: { structuredContent: { id: 'REC-1', status: 'active' }, _meta: { 'records/version': 7 } },
    });
  });

  it('a wrong credential is a connection error that does not show it', async () => {
    const http = await serve(() => recordsServer(), { authorization: 'Bearer right-token-123' });
    const records = client({ name: 'records', url: `${http.url}?key=query-secret-42`, headers: { authorization: 'Bearer wrong-token-456' } });
    const error = await records.loadTools().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as McpServerError).code).toBe('MCP_CONNECTION_FAILED');
    const message = (error as Error).message;
    expect(message).toContain(`MCP server "records" (${http.url})`);
    expect(message).not.toContain('wrong-token-456');
    expect(message).not.toContain('query-secret-42');
  });

  it('an isError result is an error result the model reads and acts on', async () => {
    const http = await serve(() => recordsServer());
    const model = scriptedModel([
      { toolCalls: [{ name: 'find', arguments: { query: 'Smith' } }] },
      { toolCalls: [{ name: 'lookup', arguments: { id: 'REC-1' } }] },
      { text: 'Found it.' },
    ]);
    const result = await createAgent({ name: 'clerk', model, toolSources: [client({ name: 'records', url: http.url })] }).run('Find Smith.').result;
    expect(result.toolCalls[0]).toMatchObject({ isError: true, content: 'No record matches "Smith": search by an id like REC-1.' });
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      isError: true,
      content: 'No record matches "Smith": search by an id like REC-1.',
    });
    expect(result.toolCalls[1]?.isError).toBe(false);
  });

  it('a list change during a run reaches the next model request, like ctx.addTools', async () => {
    const http = await serve(() => recordsServer());
    const model = scriptedModel([
      { toolCalls: [{ name: 'unlock', arguments: {} }] },
      { toolCalls: [{ name: 'vault', arguments: {} }] },
      { text: 'Open.' },
    ]);
    const run = createAgent({ name: 'keeper', model, toolSources: [client({ name: 'records', url: http.url })] }).run('Open the vault.');
    const events = collectEvents(run);
    const result = await run.result;
    expect(model.requests[0]?.tools.map((tool) => tool.name)).not.toContain('vault');
    expect(model.requests[1]?.tools.map((tool) => tool.name)).toContain('vault');
    expect(result.toolCalls[1]).toMatchObject({ content: 'The vault is open.', isError: false });
    const changed = (await events).find((event): event is Extract<RunEvent, { type: 'tools.changed' }> => event.type === 'tools.changed');
    expect(changed).toMatchObject({ callId: 'source:records', added: ['vault'], removed: [] });
  });

  it('a removed tool the rules need: the rules are checked again and the deadlock is reported, not reached', async () => {
    const http = await serve(() => recordsServer({ withVault: true }));
    const model = scriptedModel([{ toolCalls: [{ name: 'lock', arguments: {} }] }, { text: 'never reached' }]);
    const agent = createAgent({
      name: 'keeper',
      model,
      toolSources: [client({ name: 'records', url: http.url, filter: ['lock', 'vault'] })],
      toolRules: [rules.child('lock', ['vault']), rules.requiredBeforeExit('vault')],
    });
    const result = await agent.run('Lock up.').result;
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('TOOL_SOURCE_RULES_BROKEN');
    expect(result.error?.message).toMatch(/^Tool source "records" removed "vault", which the tool rules name; without it the rules can deadlock/);
    expect(model.requests).toHaveLength(1);
  });

  it("in a group chat: no loadTools first, and a list change reaches the speaking agent's next model request", async () => {
    const http = await serve(() => recordsServer());
    const model = scriptedModel([
      { toolCalls: [{ name: 'unlock', arguments: {} }] },
      { toolCalls: [{ name: 'vault', arguments: {} }] },
      { text: 'Open.' },
    ]);
    const keeper = createAgent({ name: 'keeper', model, toolSources: [client({ name: 'records', url: http.url, filter: ['unlock', 'vault'] })] });
    const chat = createGroupChat({ agents: [keeper], speakerSelection: 'round_robin', maxRounds: 1 });
    const run = chat.run('Open the vault.');
    const events: string[] = [];
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'tools.changed') events.push(`${event.event.callId} +${event.event.added.join(',')}`);
    });
    const result = await run.result;
    expect(result.reason).toBe('max-rounds');
    expect(model.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([['unlock'], ['unlock', 'vault'], ['unlock', 'vault']]);
    expect(result.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'Unlocked.',
      'The vault is open.',
    ]);
    expect(events).toEqual(['source:records +vault']);
  });

  it('in a group chat, a removed tool the rules need: checked again, the deadlock reported, not reached', async () => {
    const http = await serve(() => recordsServer({ withVault: true }));
    const model = scriptedModel([{ toolCalls: [{ name: 'lock', arguments: {} }] }, { text: 'never reached' }]);
    const keeper = createAgent({
      name: 'keeper',
      model,
      toolSources: [client({ name: 'records', url: http.url, filter: ['lock', 'vault'] })],
      toolRules: [rules.child('lock', ['vault']), rules.requiredBeforeExit('vault')],
    });
    const result = await createGroupChat({ agents: [keeper], speakerSelection: 'round_robin', maxRounds: 2 }).run('Lock up.').result;
    expect(result.reason).toBe('error');
    expect(result.error?.code).toBe('TOOL_SOURCE_RULES_BROKEN');
    expect(model.requests).toHaveLength(1);
  });

  it('filter limits what the agent sees (names or a function)', async () => {
    const http = await serve(() => recordsServer());
    const byName = await client({ name: 'a', url: http.url, filter: ['lookup'] }).loadTools();
    expect(byName.map((tool) => tool.name)).toEqual(['lookup']);
    const readOnly = await client({ name: 'b', url: http.url, filter: (tool) => tool.annotations.readOnlyHint === true }).loadTools();
    expect(readOnly.map((tool) => tool.name)).toEqual(['lookup']);
  });

  it('aborting a run sends the MCP cancellation for the call in flight', async () => {
    const http = await serve(() => recordsServer());
    const model = scriptedModel([{ toolCalls: [{ name: 'wait', arguments: {} }] }, { text: 'never' }]);
    const run = createAgent({ name: 'waiter', model, toolSources: [client({ name: 'records', url: http.url })] }).run('Wait.');
    run.events$.subscribe((event) => {
      if (event.type === 'tool.call') setTimeout(() => run.abort(), 200);
    });
    const before = seen.cancelled.length;
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    for (let tries = 0; tries < 50 && seen.cancelled.length === before; tries++) await sleep(20);
    expect(seen.cancelled.length).toBe(before + 1);
  });

  it('a malformed input schema is a clear error; a filter that leaves the tool out gets the rest', async () => {
    const build = () => {
      const server = new Server({ name: 'broken', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [
          { name: 'good', description: 'Fine.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } },
          { name: 'bad', description: 'Broken.', inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 'zero' } } } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
      return server;
    };
    const http = await serve(build);
    const agent = createAgent({ name: 'user', model: scriptedModel([{ text: 'never' }]), toolSources: [client({ name: 'broken', url: http.url })] });
    const error = await agent.run('Go.').result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpServerError);
    expect((error as McpServerError).code).toBe('MCP_TOOL_SCHEMA_INVALID');
    expect((error as Error).message).toMatch(
      /^MCP server "broken" sent a malformed input schema for tool "bad": the input schema is not a valid JSON Schema: .+ Fix the server, or leave the tool out with mcpServer\(\{ filter \}\)\.$/,
    );
    const model = scriptedModel([{ toolCalls: [{ name: 'good', arguments: { n: 1 } }] }, { text: 'ok' }]);
    const filtered = createAgent({ name: 'user', model, toolSources: [client({ name: 'broken', url: http.url, filter: ['good'] })] });
    expect((await filtered.run('Go.').result).toolCalls[0]?.content).toBe('called good');
  });

  it('falls back to HTTP+SSE for a server of the old transport', async () => {
    const http = await serve(() => recordsServer(), { transport: 'sse' });
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { id: 'REC-2' } }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'clerk', model, toolSources: [client({ name: 'old', url: http.url })] }).run('REC-2?').result;
    expect(result.toolCalls[0]?.content).toBe('Record REC-2: active');
  });
});

void ToolSourceError;

describe('secretRedactor', () => {
  it('blanks whole values and the credential of a scheme header', async () => {
    const { secretRedactor } = await import('../../packages/mcp/src/secretRedactor.js');
    const redact = secretRedactor(['Bearer abcdef123', 'abcdef123', 'short']);
    expect(redact('got Bearer abcdef123 and abcdef123; short stays')).toBe('got [redacted] and [redacted]; short stays');
  });
});
