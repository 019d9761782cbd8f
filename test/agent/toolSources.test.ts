import { type ToolSource, createAgent, createGroupChat } from '@agentchart/actors';
import { type AnyTool, ApprovalError, type RunEvent, defineTool, rules } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const tool = (name: string, result = `${name} done`): AnyTool =>
  defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), execute: () => result });

/** A tool source in memory: `set` changes its list and tells the listeners, as a server's notification would. */
function memorySource(name: string, initial: AnyTool[], options: { delayMs?: number; fail?: Error } = {}) {
  let tools = initial;
  let loads = 0;
  let closed = 0;
  const listeners = new Set<() => void | Promise<void>>();
  const source: ToolSource & { set(next: AnyTool[]): Promise<unknown>; readonly loads: number; readonly closed: number } = {
    name,
    loadTools: async () => {
      loads += 1;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (options.fail) throw options.fail;
      return tools;
    },
    onToolsChanged: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: async () => {
      closed += 1;
    },
    set: (next) => {
      tools = next;
      return Promise.all([...listeners].map((listener) => listener()));
    },
    get loads() {
      return loads;
    },
    get closed() {
      return closed;
    },
  };
  return source;
}

const events = (run: { events$: import('rxjs').Observable<RunEvent> }) => firstValueFrom(run.events$.pipe(toArray()));

describe('tool sources (the hook MCP servers use)', () => {
  it('loads the sources before the first model request and builds the agent once per list', async () => {
    const source = memorySource('mem', [tool('alpha')]);
    const model = scriptedModel([{ toolCalls: [{ name: 'alpha', arguments: {} }] }, { text: 'one' }, { text: 'two' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('own')],
      toolSources: [source],
      toolChoice: { mode: 'auto', allowedTools: ['alpha', 'own'] },
    });
    const run = agent.run('Go.');
    const seen = events(run);
    expect(run.runId).toMatch(/^run_/);
    expect(run.pendingApprovals).toEqual([]);
    const first = await run.result;
    expect(first.runId).toBe(run.runId);
    expect((await seen).map((event) => event.runId).every((id) => id === run.runId)).toBe(true);
    expect(model.requests[0]?.tools.map((spec) => spec.name)).toEqual(['own', 'alpha']);
    expect(first.toolCalls[0]?.content).toBe('alpha done');
    const rulesBefore = agent.toolRules;
    await agent.run('Again.').result;
    expect(agent.toolRules).toBe(rulesBefore);
    expect(agent.tools.map((t) => t.name)).toEqual(['own', 'alpha']);
    await agent.close();
    expect(source.closed).toBe(1);
  });

  it('a list change reaches the running run: tools.changed, then the next model request', async () => {
    const source = memorySource('mem', [tool('alpha')]);
    const model = scriptedModel([
      { toolCalls: [{ name: 'alpha', arguments: {} }] },
      { toolCalls: [{ name: 'beta', arguments: {} }] },
      { text: 'done' },
    ]);
    const changer: AnyTool = defineTool({
      name: 'alpha',
      description: 'Adds beta.',
      parameters: z.object({}),
      execute: async (): Promise<string> => {
        await source.set([changer, tool('beta')]);
        return 'added';
      },
    });
    await source.set([changer]);
    const run = createAgent({ name: 'a', model, toolSources: [source] }).run('Go.');
    const seen = events(run);
    const result = await run.result;
    expect(model.requests[1]?.tools.map((spec) => spec.name)).toEqual(['alpha', 'beta']);
    expect(result.toolCalls[1]?.content).toBe('beta done');
    expect((await seen).find((event) => event.type === 'tools.changed')).toMatchObject({
      callId: 'source:mem',
      added: ['beta'],
      removed: [],
      tools: ['alpha', 'beta'],
    });
  });

  it('removing a tool that the rules require: the run fails with TOOL_SOURCE_RULES_BROKEN instead of never ending', async () => {
    const source = memorySource('mem', []);
    const remover: AnyTool = defineTool({
      name: 'alpha',
      description: 'Removes beta.',
      parameters: z.object({}),
      execute: async (): Promise<string> => {
        await source.set([remover]);
        return 'removed';
      },
    });
    await source.set([remover, tool('beta')]);
    const model = scriptedModel([{ toolCalls: [{ name: 'alpha', arguments: {} }] }, { text: 'never' }]);
    const agent = createAgent({ name: 'a', model, toolSources: [source], toolRules: [rules.requiredBeforeExit('beta')] });
    const result = await agent.run('Go.').result;
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ code: 'TOOL_SOURCE_RULES_BROKEN' });
    expect(result.error?.message).toBe(
      'Tool source "mem" removed "beta", which the tool rules name; without it no run can end (a required tool can no longer be called), so the run stopped here. Restore the tool on the server, or change the rules so they do not depend on it.',
    );
    expect(model.requests).toHaveLength(1);
  });

  it('a run waiting for approval persists and resumes through the sources', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ amount: z.number() }),
      approval: 'always',
      execute: ({ amount }) => `paid ${amount}`,
    });
    const source = memorySource('bank', [pay]);
    const script = [{ toolCalls: [{ name: 'pay', arguments: { amount: 5 }, id: 'p1' }] }, { text: 'Paid.' }];
    const agent = createAgent({ name: 'payer', model: scriptedModel(script), toolSources: [source] });
    const run = agent.run('Pay 5.');
    await new Promise<void>((resolve) => run.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
    const snapshot = JSON.parse(JSON.stringify(run.persist()));
    run.abort();
    await run.result;
    const resumed = createAgent({ name: 'payer', model: scriptedModel(script.slice(1)), toolSources: [source] }).resume(snapshot);
    expect(resumed.runId).toBe(run.runId);
    expect(resumed.pendingApprovals.map((request) => request.id)).toEqual(['p1']);
    resumed.approve('p1'); // before the sources are loaded: handed to the run once it exists
    expect(() => resumed.approve('p1')).toThrow(ApprovalError);
    const result = await resumed.result;
    expect(result.toolCalls.map((record) => record.content)).toEqual(['paid 5']);
    expect(result.text).toBe('Paid.');
  });

  it('aborting while the sources load ends the run aborted without a model call', async () => {
    const source = memorySource('slow', [tool('alpha')], { delayMs: 100 });
    const model = scriptedModel([{ text: 'never' }]);
    const run = createAgent({ name: 'a', model, toolSources: [source] }).run('Go.');
    run.abort();
    expect(run.state.get('missing')).toBeUndefined();
    expect(() => run.state.set('x', 1)).toThrow(/has not started yet/);
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    expect(model.requests).toHaveLength(0);
  });

  it('a source that fails to load rejects the result and errors the events', async () => {
    const source = memorySource('down', [], { fail: new Error('server unreachable') });
    const run = createAgent({ name: 'a', model: scriptedModel([{ text: 'never' }]), toolSources: [source] }).run('Go.');
    await expect(run.result).rejects.toThrow('server unreachable');
    await expect(events(run)).rejects.toThrow('server unreachable');
  });

  it("a group chat loads its agents' sources when it starts (no loadTools first), and closes them", async () => {
    const source = memorySource('mem', [tool('alpha')]);
    const model = scriptedModel(() => ({ text: 'hi' }));
    const agent = createAgent({ name: 'member', model, instructions: 'Says hi.', toolSources: [source] });
    const chat = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 });
    expect(source.loads).toBe(0);
    expect((await chat.run('Hello.').result).reason).toBe('max-rounds');
    expect(source.loads).toBe(1);
    expect(model.requests[0]?.tools.map((spec) => spec.name)).toEqual(['alpha']);
    await chat.close(); // closes its agents' tool sources
    expect(source.closed).toBe(1);
  });

  it("in a chat, a list change reaches the speaking agent's next model request, and its later turns", async () => {
    const alpha = tool('alpha');
    const source = memorySource('mem', [alpha]);
    const grow = defineTool({
      name: 'grow',
      description: 'Adds beta.',
      parameters: z.object({}),
      execute: async () => {
        await source.set([alpha, tool('beta')]);
        return 'grown';
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'grow', arguments: {} }] },
      { toolCalls: [{ name: 'beta', arguments: {} }] },
      { text: 'first turn done' },
      { text: 'second turn done' },
    ]);
    const agent = createAgent({ name: 'grower', model, tools: [grow], toolSources: [source] });
    const other = createAgent({ name: 'other', model: scriptedModel(() => ({ text: 'ok' })) });
    const chat = createGroupChat({ agents: [agent, other], speakerSelection: 'round_robin', maxRounds: 3 });
    const run = chat.run('Grow.');
    const seen = firstValueFrom(run.events$.pipe(toArray()));
    const result = await run.result;
    expect(result.reason).toBe('max-rounds');
    const offered = model.requests.map((request) => request.tools.map((spec) => spec.name));
    expect(offered).toEqual([
      ['grow', 'alpha'],
      ['grow', 'alpha', 'beta'],
      ['grow', 'alpha', 'beta'],
      ['grow', 'alpha', 'beta'],
    ]);
    expect(result.messages.find((message) => message.role === 'tool' && message.toolName === 'beta')?.content).toBe('beta done');
    const changed = (await seen).flatMap((event) => (event.type === 'agent.event' && event.event.type === 'tools.changed' ? [event.event] : []));
    expect(changed).toMatchObject([{ agent: 'grower', callId: 'source:mem', added: ['beta'], removed: [], tools: ['grow', 'alpha', 'beta'] }]);
    await chat.close();
  });

  it('in a chat, a removed tool the rules need fails the speaking turn with TOOL_SOURCE_RULES_BROKEN, and the next turn too', async () => {
    const source = memorySource('mem', [tool('vault')]);
    const lock = defineTool({
      name: 'lock',
      description: 'Removes vault.',
      parameters: z.object({}),
      execute: async () => {
        await source.set([]);
        return 'locked';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'lock', arguments: {} }] }, { text: 'never' }]);
    const agent = createAgent({
      name: 'keeper',
      model,
      tools: [lock],
      toolSources: [source],
      toolRules: [rules.child('lock', ['vault']), rules.requiredBeforeExit('vault')],
    });
    const chat = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 2 });
    const result = await chat.run('Lock up.').result;
    expect(result.reason).toBe('error');
    expect(result.error?.code).toBe('TOOL_SOURCE_RULES_BROKEN');
    expect(result.error?.message).toMatch(/^Tool source "mem" removed "vault", which the tool rules name; without it the rules can deadlock/);
    expect(model.requests).toHaveLength(1);

    // A later chat with this agent loads its sources at start: the list cannot make the agent, so it fails as agent.run does.
    const again = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 }).run('Again.').result;
    await expect(again).rejects.toMatchObject({ code: 'TOOL_RULES_UNKNOWN_TOOL' });
  });

  it("in a chat, a change another agent causes reaches a waiting agent's next turn; one its rules cannot take fails that turn", async () => {
    const vault = tool('vault');
    const source = memorySource('mem', [vault, tool('alpha')]);
    const lock = defineTool({
      name: 'lock',
      description: 'Removes vault.',
      parameters: z.object({}),
      execute: async () => {
        await source.set([]);
        return 'locked';
      },
    });
    const keeperModel = scriptedModel(() => ({ text: 'keeper here' }));
    const keeper = createAgent({ name: 'keeper', model: keeperModel, toolSources: [source], toolRules: [rules.maxCount('vault', 1)] });
    const locker = createAgent({
      name: 'locker',
      model: scriptedModel([{ toolCalls: [{ name: 'lock', arguments: {} }] }, { text: 'locked it' }]),
      tools: [lock],
    });
    const chat = createGroupChat({ agents: [locker, keeper], speakerSelection: 'round_robin', maxRounds: 2 });
    const result = await chat.run('Go.').result;
    expect(result.reason).toBe('error');
    expect(result.lastSpeaker).toBe('keeper');
    expect(result.error).toMatchObject({ code: 'TOOL_RULES_UNKNOWN_TOOL', message: expect.stringContaining('Tool rules name "vault"') });
    expect(keeperModel.requests).toHaveLength(0);
  });

  it("a chat whose agent's source fails to load rejects its result and errors its events", async () => {
    const agent = createAgent({
      name: 'a',
      model: scriptedModel([{ text: 'never' }]),
      toolSources: [memorySource('down', [], { fail: new Error('server unreachable') })],
    });
    const run = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 }).run('Go.');
    await expect(run.result).rejects.toThrow('server unreachable');
    await expect(firstValueFrom(run.events$.pipe(toArray()))).rejects.toThrow('server unreachable');
  });

  it("a chat aborted while its agents' sources load ends aborted, no model called", async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const agent = createAgent({ name: 'a', model, toolSources: [memorySource('slow', [tool('alpha')], { delayMs: 50 })] });
    const run = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 }).run('Go.');
    run.abort();
    expect((await run.result).reason).toBe('aborted');
    expect(model.requests).toHaveLength(0);
  });

  it('rejects what is not a tool source, and two sources with one name', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ name: 'a', model, toolSources: [{} as ToolSource] })).toThrow(/takes tool sources/);
    expect(() => createAgent({ name: 'a', model, toolSources: memorySource('x', []) as never })).toThrow(
      'createAgent({ name: "a", toolSources }) takes a list of tool sources.',
    );
    expect(() => createAgent({ name: 'a', model, toolSources: [memorySource('x', []), memorySource('x', [])] })).toThrow(
      'Two tool sources are named "x": give each its own name.',
    );
  });
});
