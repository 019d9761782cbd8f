import { type RunResult, ToolSourceError, createAgent, createGroupChat } from '@agentchart/actors';
import { AbortedError, ConfigurationError, ToolRulesError, rules } from '@agentchart/core';
import { type McpServer, type McpServerOptions, type McpToolResult, mcpServer, mcpToolOrigin } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { collectEvents, everythingServer } from './mcpTestServers.js';

const servers: McpServer[] = [];
const everything = (options: Partial<McpServerOptions> = {}) => {
  const server = mcpServer({ name: 'everything', ...everythingServer(), ...options } as McpServerOptions);
  servers.push(server);
  return server;
};
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** One server for the tests that need no options of their own. */
const shared = everything();

describe('mcpServer over stdio (server-everything)', () => {
  it('lists the server tools with their schemas and annotations', async () => {
    const tools = await shared.loadTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
    const sum = tools.find((tool) => tool.name === 'get-sum');
    expect(sum?.spec.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(sum?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(mcpToolOrigin(sum!)).toMatchObject({ serverName: 'everything', mcpToolName: 'get-sum' });
    // A tool whose definition did not change keeps its object across loads (the server announces a change after it starts).
    expect((await shared.loadTools()).find((tool) => tool.name === 'get-sum')).toBe(sum);
  });

  it('calls a tool in a run and the model reads its text', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }] }, { text: 'Five.' }]);
    const agent = createAgent({ name: 'adder', model, toolSources: [shared] });
    const result = await agent.run('2 + 3?').result;
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls[0]).toMatchObject({ content: 'The sum of 2 and 3 is 5.', isError: false });
    expect((result.toolCalls[0]!.value as McpToolResult).content).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toContain('get-sum');
  });

  it('validates arguments against the JSON Schema before calling', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'get-sum', arguments: { a: 'two', b: 3 } }] }, { text: 'Oops.' }]);
    const agent = createAgent({ name: 'adder', model, toolSources: [shared] });
    const result = await agent.run('2 + 3?').result;
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.content).toBe('Invalid arguments for tool "get-sum":\n- a: must be number\nFix these and call "get-sum" again.');
  });

  it('maps image and structured content: a line of text for the model, the whole result for the program', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'get-tiny-image', arguments: {} },
          { name: 'get-structured-content', arguments: { location: 'Chicago' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = createAgent({ name: 'viewer', model, toolSources: [shared] });
    const result = await agent.run('Show me.').result;
    const [image, structured] = result.toolCalls;
    expect(image?.content).toMatch(/\[image: image\/png, \d+ bytes\]/);
    expect((image!.value as McpToolResult).content.some((block) => block.type === 'image')).toBe(true);
    expect((structured!.value as McpToolResult).structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it('progress notifications restart the timeout; a call without progress times out and the run goes on', async () => {
    const server = everything({ timeoutMs: 1_500 });
    const model = scriptedModel([
      // 5 steps of 0.4 s: 2 s in all, longer than the timeout, but never 1.5 s without progress.
      { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 2, steps: 5 } }] },
      // 1 step of 2.5 s: no progress for longer than the timeout.
      { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 2.5, steps: 1 } }] },
      { toolCalls: [{ name: 'get-sum', arguments: { a: 1, b: 1 } }] },
      { text: 'Done.' },
    ]);
    const agent = createAgent({ name: 'waiter', model, toolSources: [server] });
    const result = await agent.run('Wait.').result;
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls[0]).toMatchObject({ isError: false, content: 'Long running operation completed. Duration: 2 seconds, Steps: 5.' });
    expect(result.toolCalls[1]?.isError).toBe(true);
    expect(result.toolCalls[1]?.content).toBe(
      'The call of "trigger-long-running-operation" timed out: MCP server "everything" sent neither a result nor progress for 1500 ms, so the call was cancelled. Its effect is unknown; try again, perhaps with less work per call.',
    );
    expect(result.toolCalls[2]).toMatchObject({ isError: false, content: 'The sum of 1 and 1 is 2.' });
  });

  it('progress notifications become tool.progress run events, in an agent run and in a chat run', async () => {
    const call = { toolCalls: [{ id: 'op', name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }] };
    const model = scriptedModel([call, { text: 'Done.' }, call, { text: 'Done.' }]);
    const agent = createAgent({ name: 'waiter', model, toolSources: [shared] });
    const run = agent.run('Wait.');
    const events = await collectEvents(run);
    const progress = events.filter((event) => event.type === 'tool.progress');
    expect(progress).toEqual(
      [1, 2, 3].map((step) => ({
        type: 'tool.progress',
        runId: run.runId,
        agent: 'waiter',
        step: 1,
        callId: 'op',
        toolName: 'trigger-long-running-operation',
        progress: step,
        total: 3,
      })),
    );
    // Between the call and its result.
    const types = events.map((event) => event.type);
    expect(types.indexOf('tool.call')).toBeLessThan(types.indexOf('tool.progress'));
    expect(types.lastIndexOf('tool.progress')).toBeLessThan(types.indexOf('tool.result'));

    const chat = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 });
    const chatRun = chat.run('Wait again.');
    const seen: Array<[string, number, number | undefined]> = [];
    chatRun.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'tool.progress') seen.push([event.speaker, event.event.progress, event.event.total]);
    });
    expect((await chatRun.result).reason).toBe('max-rounds');
    expect(seen).toEqual([
      ['waiter', 1, 3],
      ['waiter', 2, 3],
      ['waiter', 3, 3],
    ]);
  });

  it('timeoutMs: null waits as long as the call takes', async () => {
    const server = everything({ timeoutMs: null });
    const model = scriptedModel([
      { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 1 } }] },
      { text: 'Done.' },
    ]);
    const result = await createAgent({ name: 'waiter', model, toolSources: [server] }).run('Wait.').result;
    expect(result.toolCalls[0]?.isError).toBe(false);
  });

  it('aborting a run ends a call in flight at once', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 10 } }] },
      { text: 'never' },
    ]);
    const agent = createAgent({ name: 'waiter', model, toolSources: [shared] });
    const run = agent.run('Wait.');
    const events = collectEvents(run);
    setTimeout(() => run.abort(), 600);
    const started = Date.now();
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await events).some((event) => event.type === 'tool.call')).toBe(true);
  });

  it('never shows environment values to the model or in events', async () => {
    const secret = 'sk-test-4f9d2c81b7';
    const server = everything({ env: { EVERYTHING_API_TOKEN: secret } });
    const model = scriptedModel([{ toolCalls: [{ name: 'get-env', arguments: {} }] }, { text: 'Done.' }]);
    const run = createAgent({ name: 'env', model, toolSources: [server] }).run('Env?');
    const events = collectEvents(run);
    const result = await run.result;
    expect(result.toolCalls[0]?.content).toContain('EVERYTHING_API_TOKEN');
    expect(result.toolCalls[0]?.content).toContain('[redacted]');
    expect(JSON.stringify(model.requests)).not.toContain(secret);
    expect(JSON.stringify(await events)).not.toContain(secret);
  });
});

describe('names, rules and approvals', () => {
  it('a prefix renames the tools; rules, toolChoice and approvals name the prefixed tools', async () => {
    const server = everything({ prefix: 'ev', approval: { ev__echo: 'always' }, filter: ['get-sum', 'ev__echo'] });
    const model = scriptedModel([
      { toolCalls: [{ name: 'ev__get-sum', arguments: { a: 4, b: 5 } }] },
      { toolCalls: [{ name: 'ev__echo', arguments: { message: 'hi' } }] },
      { text: 'Done.' },
    ]);
    const agent = createAgent({
      name: 'ruled',
      model,
      toolSources: [server],
      toolRules: [rules.init('ev__get-sum'), rules.child('ev__get-sum', ['ev__echo'])],
      toolChoice: { mode: 'auto', allowedTools: ['ev__get-sum', 'ev__echo'] },
    });
    const run = agent.run('Sum then echo.');
    const pending = await new Promise<string>((resolve) => {
      run.events$.subscribe((event) => {
        if (event.type === 'approval.requested') resolve(event.toolName);
      });
    });
    expect(pending).toBe('ev__echo');
    run.approve(run.pendingApprovals[0]!.id);
    const result = await run.result;
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['ev__get-sum']);
    expect(result.toolCalls.map((record) => record.content)).toEqual(['The sum of 4 and 5 is 9.', 'Echo: hi']);
    expect(agent.toolRules?.toolNames).toEqual(['ev__echo', 'ev__get-sum']);
  });

  it('middleware and oneCallAtATime address the prefixed names', async () => {
    const server = everything({ prefix: 'ev', filter: ['get-sum', 'echo'], oneCallAtATime: ['ev__echo'] });
    const seenByMiddleware: string[] = [];
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'ev__get-sum', arguments: { a: 1, b: 1 } },
          { name: 'ev__echo', arguments: { message: 'x' } },
        ],
      },
      { toolCalls: [{ name: 'ev__echo', arguments: { message: 'alone' } }] },
      { text: 'Done.' },
    ]);
    const agent = createAgent({
      name: 'wrapped',
      model,
      toolSources: [server],
      middleware: [
        async (ctx, next) => {
          seenByMiddleware.push(ctx.tool.name);
          await next();
        },
      ],
    });
    const result = await agent.run('Go.').result;
    expect(result.toolCalls.map((record) => [record.call.name, record.isError])).toEqual([
      ['ev__get-sum', false],
      ['ev__echo', true],
      ['ev__echo', false],
    ]);
    expect(result.toolCalls[1]?.content).toMatch(/^Tool "ev__echo" must be called on its own/);
    expect(seenByMiddleware).toEqual(['ev__get-sum', 'ev__echo']);
  });

  it('an approval named by the unprefixed name is an error, not a silent "never"', async () => {
    const server = everything({ prefix: 'ev', approval: { echo: 'always' } });
    await expect(server.loadTools()).rejects.toThrow(
      'mcpServer({ name: "everything" }): `approval` names "echo", but with the prefix the model sees it as "ev__echo": use that name.',
    );
  });

  it('rules naming a tool by its unprefixed name fail the run with the rules error', async () => {
    const server = everything({ prefix: 'ev', filter: ['get-sum'] });
    const model = scriptedModel([{ text: 'never' }]);
    const agent = createAgent({ name: 'ruled', model, toolSources: [server], toolRules: [rules.init('get-sum')] });
    const error = await agent.run('Go.').result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolRulesError);
    expect((error as ToolRulesError).code).toBe('TOOL_RULES_UNKNOWN_TOOL');
    expect(model.requests).toHaveLength(0);
  });

  it('two servers offering one name without prefixes is an error naming both', async () => {
    const one = everything({ name: 'one', filter: ['echo'] });
    const two = everything({ name: 'two', filter: ['echo'] });
    const agent = createAgent({ name: 'clash', model: scriptedModel([{ text: 'never' }]), toolSources: [one, two] });
    const error = await agent.run('Go.').result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolSourceError);
    expect((error as ToolSourceError).code).toBe('TOOL_SOURCE_NAME_COLLISION');
    expect((error as Error).message).toBe(
      'Tool "echo" is offered by tool source "one" and by tool source "two": give a source a prefix (mcpServer({ prefix })) or a filter that leaves the tool out.',
    );
  });

  it('approval predicates read the annotations; `destructive` asks only for tools not marked safe', async () => {
    const seen: unknown[] = [];
    const server = everything({
      filter: ['echo', 'get-sum'],
      approval: (args, ctx) => {
        seen.push({ args, tool: ctx.toolName, mcpToolName: ctx.mcpToolName, readOnly: ctx.annotations.readOnlyHint });
        return ctx.toolName === 'echo';
      },
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'get-sum', arguments: { a: 1, b: 2 } },
          { name: 'echo', arguments: { message: 'x' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const run = createAgent({ name: 'careful', model, toolSources: [server] }).run('Go.');
    await new Promise<void>((resolve) => run.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
    expect(run.pendingApprovals.map((request) => request.toolName)).toEqual(['echo']);
    run.reject(run.pendingApprovals[0]!.id, 'not now');
    const result: RunResult = await run.result;
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      'The sum of 1 and 2 is 3.',
      'The call of "echo" was rejected by the user and did not run. Reason: not now',
    ]);
    expect(seen).toEqual([
      { args: { a: 1, b: 2 }, tool: 'get-sum', mcpToolName: 'get-sum', readOnly: true },
      { args: { message: 'x' }, tool: 'echo', mcpToolName: 'echo', readOnly: true },
    ]);
    const tools = await everything({ approval: 'destructive' }).loadTools();
    const sum = tools.find((tool) => tool.name === 'get-sum')!;
    expect(await sum.needsApproval({ a: 1, b: 2 }, { callId: 'c', toolName: 'get-sum', agentName: 'a', runId: 'r' })).toBe(false);
  });

  it('checks options when the server is defined', () => {
    expect(() => mcpServer({ name: 'bad name', command: 'x' })).toThrow(ConfigurationError);
    expect(() => mcpServer({ name: 'both', command: 'x', url: 'http://127.0.0.1:1/mcp' } as never)).toThrow(
      'mcpServer({ name: "both" }) needs either `command` (a server started over stdio) or `url` (Streamable HTTP), not both.',
    );
    expect(() => mcpServer({ name: 't', command: 'x', timeoutMs: -1 })).toThrow(ConfigurationError);
  });

  it('a server that cannot start is a clear error of the run', async () => {
    const server = everything({ name: 'missing', command: process.execPath, args: ['-e', 'process.exit(3)'] });
    const agent = createAgent({ name: 'lonely', model: scriptedModel([{ text: 'never' }]), toolSources: [server] });
    const error = await agent.run('Go.').result.catch((caught: unknown) => caught);
    expect((error as { code?: string }).code).toBe('MCP_CONNECTION_FAILED');
    expect((error as Error).message).toMatch(/^Could not connect to MCP server "missing" \(.+ \(stdio\)\): /);
  });
});

void AbortedError;
