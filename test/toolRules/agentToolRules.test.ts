import { type RunEvent, ToolRulesError, defineTool, rules } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const executed: string[] = [];
const tool = (name: string, execute: (args: Record<string, unknown>) => unknown = () => `${name} done`) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: z.object({ q: z.string().optional(), key: z.string().optional() }),
    execute: (args) => {
      executed.push(name);
      return execute(args);
    },
  });

const collect = (events: RunEvent[]) => (event: RunEvent) => events.push(event);

describe('agent with tool rules', () => {
  it('offers only allowed tools and forces the only allowed one', async () => {
    executed.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'search', arguments: { q: 'x' } }] }, { toolCalls: [{ name: 'read' }] }, { text: 'Done.' }]);
    const agent = createAgent({
      name: 'researcher',
      model,
      instructions: 'Research.',
      tools: [tool('search'), tool('read'), tool('answer')],
      toolRules: [rules.init('search'), rules.child('search', ['read'])],
    });
    const result = await agent.run('Go').result;
    expect(result.stopReason).toBe('completed');
    expect(executed).toEqual(['search', 'read']);
    expect(model.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([['search'], ['read'], ['search', 'read', 'answer']]);
    expect(model.requests.map((request) => request.toolChoice)).toEqual([{ type: 'tool', name: 'search' }, { type: 'tool', name: 'read' }, 'auto']);
    expect(model.requests[1]?.messages[0]).toEqual({
      role: 'system',
      content:
        'Research.\n\nTool rules:\n- Call search first.\n- After search, call one of: read.\n' +
        'Now: after search, read must be called; you must call read.',
    });
  });

  it('keeps the agent’s forced tool while the rules allow it, and forces by the rules otherwise', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'fetch' }] }, { toolCalls: [{ name: 'read' }] }, { text: 'Done.' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('search'), tool('fetch'), tool('read')],
      toolChoice: { type: 'tool', name: 'fetch' },
      toolRules: [rules.init('search'), rules.init('fetch'), rules.child('fetch', ['search', 'read'])],
    });
    await agent.run('Go').result;
    expect(model.requests.map((request) => [request.tools.map((spec) => spec.name), request.toolChoice])).toEqual([
      [['search', 'fetch'], { type: 'tool', name: 'fetch' }],
      [['search', 'read'], 'required'],
      [['search', 'fetch', 'read'], 'auto'],
    ]);
  });

  it('refuses an illegal call without executing it and tells the model why', async () => {
    executed.length = 0;
    const events: RunEvent[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'read' }] }, { toolCalls: [{ name: 'search' }] }, { text: 'ok' }]);
    const agent = createAgent({ name: 'a', model, tools: [tool('search'), tool('read')], toolRules: [rules.init('search')] });
    const run = agent.run('Go');
    run.events$.subscribe(collect(events));
    const result = await run.result;
    expect(executed).toEqual(['search']);
    const content = 'Tool "read" was not run: the first tool call must be one of: search (rule: init). Tools you may call now: search.';
    expect(events.find((event) => event.type === 'tool.refused')).toEqual({
      type: 'tool.refused',
      runId: result.runId,
      agent: 'a',
      step: 1,
      call: { id: 'call_0_0', name: 'read', arguments: {} },
      rule: 'init',
      reason: 'the first tool call must be one of: search',
      allowedTools: ['search'],
      content,
    });
    expect(events.some((event) => event.type === 'tool.call' && event.call.name === 'read')).toBe(false);
    expect(result.toolCalls[0]).toEqual({
      step: 1,
      call: { id: 'call_0_0', name: 'read', arguments: {} },
      content,
      isError: true,
      refusedBy: 'init',
    });
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'tool', toolCallId: 'call_0_0', toolName: 'read', content, isError: true });
  });

  it('checks a parallel batch in order, each legal call advancing the rules', async () => {
    executed.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'search' }, { name: 'read' }, { name: 'read' }, { name: 'search' }] }, { text: 'ok' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('search'), tool('read')],
      toolRules: [rules.init('search'), rules.child('search', ['read']), rules.maxCount('read', 1), rules.maxCount('search', 1)],
    });
    const result = await agent.run('Go').result;
    expect(executed).toEqual(['search', 'read']);
    expect(result.toolCalls.map((record) => record.refusedBy ?? 'ran')).toEqual(['ran', 'ran', 'maxCount', 'maxCount']);
  });

  it('ends the run when a terminal tool has executed, refusing later calls of the batch', async () => {
    executed.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'send_message' }, { name: 'search' }] }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('search'), tool('send_message')],
      toolRules: [rules.terminal('send_message')],
    });
    const result = await agent.run('Go').result;
    expect(result.stopReason).toBe('terminal-tool');
    expect(executed).toEqual(['send_message']);
    expect(result.toolCalls[1]?.content).toBe('Tool "search" was not run: the run has ended (rule: terminal). No tool may be called now.');
    expect(model.requests).toHaveLength(1);
  });

  it('answers an early final answer with a reminder naming the missing tools', async () => {
    executed.length = 0;
    const model = scriptedModel([{ text: 'All done!' }, { toolCalls: [{ name: 'save' }] }, { text: 'Saved and done.' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('search'), tool('save')],
      toolRules: [rules.requiredBeforeExit('save')],
    });
    const result = await agent.run('Go').result;
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('Saved and done.');
    expect(model.requests[0]?.toolChoice).toBe('required');
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'user',
      content: '[tool rules] You cannot finish yet: before finishing, call save. Call one of: search, save.',
    });
  });

  it('stops reminding at maxSteps', async () => {
    const model = scriptedModel(() => ({ text: 'I refuse to call tools.' }));
    const agent = createAgent({ name: 'a', model, maxSteps: 3, tools: [tool('save')], toolRules: [rules.requiredBeforeExit('save')] });
    const result = await agent.run('Go').result;
    expect(result.stopReason).toBe('max-steps');
    expect(model.requests).toHaveLength(3);
  });

  it('lets the conditional tool output pick the next tool', async () => {
    executed.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'check' }] }, { toolCalls: [{ name: 'publish' }, { name: 'revise' }] }, { text: 'ok' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('check', () => 'false'), tool('publish'), tool('revise')],
      toolRules: [
        rules.conditional('check', {
          cases: [
            [true, 'publish'],
            [false, 'revise'],
          ],
        }),
      ],
    });
    const result = await agent.run('Go').result;
    expect(executed).toEqual(['check', 'revise']);
    expect(model.requests[1]?.tools.map((spec) => spec.name)).toEqual(['revise']);
    expect(result.toolCalls[1]?.refusedBy).toBe('conditional');
  });

  it('fails the run when a required conditional match fails', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'check' }] }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('check', () => 'maybe'), tool('publish')],
      toolRules: [rules.conditional('check', { cases: { yes: 'publish' }, requireMatch: true })],
    });
    const result = await agent.run('Go').result;
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('TOOL_RULE_OUTPUT_UNMATCHED');
  });

  it('holds a requiresApproval call for a person and refuses the rest of its batch meanwhile', async () => {
    executed.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'delete' }, { name: 'search' }] }, { text: 'ok' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('delete'), tool('search')],
      toolRules: [rules.requiresApproval('delete'), rules.maxCount('delete', 1)],
    });
    const run = agent.run('Go');
    const events: RunEvent[] = [];
    run.events$.subscribe(collect(events));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(run.pendingApprovals.map((request) => request.toolName)).toEqual(['delete']);
    expect(executed).toEqual([]);
    run.approve(run.pendingApprovals[0]?.id ?? '');
    const result = await run.result;
    expect(executed).toEqual(['delete']);
    expect(result.toolCalls[1]?.refusedBy).toBe('requiresApproval');
    expect(events.filter((event) => event.type === 'tool.refused').map((event) => event.type === 'tool.refused' && event.reason)).toEqual([
      'the call of delete is waiting for approval',
    ]);
    expect(model.requests[1]?.tools.map((spec) => spec.name)).toEqual(['search']);
  });

  it('does not count a rejected requiresApproval call', async () => {
    executed.length = 0;
    const model = scriptedModel([{ toolCalls: [{ name: 'delete' }] }, { text: 'ok' }]);
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('delete'), tool('search')],
      toolRules: [rules.requiresApproval('delete'), rules.maxCount('delete', 1)],
    });
    const run = agent.run('Go');
    await new Promise((resolve) => setTimeout(resolve, 10));
    run.reject(run.pendingApprovals[0]?.id ?? '', 'no');
    await run.result;
    expect(executed).toEqual([]);
    expect(model.requests[1]?.tools.map((spec) => spec.name)).toEqual(['delete', 'search']);
  });

  it('prefills init and child arguments over the model values', async () => {
    const seen: unknown[] = [];
    const model = scriptedModel([
      { toolCalls: [{ name: 'login', arguments: { key: 'guess', q: 'a' } }] },
      { toolCalls: [{ name: 'fetch', arguments: { key: 'guess' } }] },
      { text: 'ok' },
    ]);
    const record = (name: string) => tool(name, (args) => seen.push({ name, args }));
    const agent = createAgent({
      name: 'a',
      model,
      tools: [record('login'), record('fetch')],
      toolRules: [rules.init('login', { args: { key: 'K1' } }), rules.child('login', ['fetch'], { args: { fetch: { key: 'K2' } } })],
    });
    await agent.run('Go').result;
    expect(seen).toEqual([
      { name: 'login', args: { key: 'K1', q: 'a' } },
      { name: 'fetch', args: { key: 'K2' } },
    ]);
  });

  it('counts a strict tool call whose optional fields come as null (as OpenAI strict mode sends them)', async () => {
    let runs = 0;
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a city up.',
      strict: true,
      parameters: z.object({ city: z.string(), unit: z.string().optional() }),
      execute: () => `lookup ${++runs}`,
    });
    const call = { name: 'lookup', arguments: { city: 'Oslo', unit: null } };
    const model = scriptedModel([{ toolCalls: [call] }, { toolCalls: [call] }, { text: 'Done.' }]);
    const agent = createAgent({ name: 'a', model, tools: [lookup, tool('other')], toolRules: [rules.maxCount('lookup', 1)] });
    const result = await agent.run('Go').result;
    expect(runs).toBe(1);
    expect(result.toolCalls.map((record) => [record.content, record.refusedBy])).toEqual([
      ['lookup 1', undefined],
      ['Tool "lookup" was not run: lookup may be called at most 1 time(s) per run (rule: maxCount). Tools you may call now: other.', 'maxCount'],
    ]);
  });

  it('rejects a deadlocking rule set when the agent is created', () => {
    expect(() =>
      createAgent({
        name: 'a',
        model: scriptedModel([]),
        tools: [tool('a'), tool('b')],
        toolRules: [rules.child('a', ['b']), rules.maxCount('b', 1), rules.child('b', ['b'])],
      }),
    ).toThrow(ToolRulesError);
  });
});

describe('the toolRules child actor', () => {
  it('an inspected run keeps the compiled machine as a child that moves with every admitted call', async () => {
    let seen: { value: unknown; last: unknown } | undefined;
    let run: ReturnType<ReturnType<typeof createAgent>['run']> | undefined;
    const model = scriptedModel((_request, index) => {
      if (index === 1) {
        const child = run?.actor.getSnapshot().children.toolRules;
        const snapshot = child?.getSnapshot() as { value: unknown; context: { last: unknown } } | undefined;
        seen = { value: snapshot?.value, last: snapshot?.context.last };
        return { text: 'ok' };
      }
      return { toolCalls: [{ name: 'search' }] };
    });
    const agent = createAgent({ name: 'a', model, tools: [tool('search'), tool('read')], toolRules: [rules.init('search')] });
    run = agent.run('Go', { inspect: () => undefined });
    await run.result;
    expect(seen).toEqual({ value: 'after:search', last: 'search' });
  });

  it('a run nobody inspects decides with the same rules and keeps the same mirror child as an inspected one', async () => {
    let children: string[] | undefined;
    let run: ReturnType<ReturnType<typeof createAgent>['run']> | undefined;
    const model = scriptedModel((_request, index) => {
      if (index === 1) {
        children = Object.keys(run?.actor.getSnapshot().children ?? {}).sort();
        return { toolCalls: [{ name: 'search' }] };
      }
      return index === 0 ? { toolCalls: [{ name: 'search' }] } : { text: 'ok' };
    });
    const agent = createAgent({
      name: 'a',
      model,
      tools: [tool('search'), tool('read')],
      toolRules: [rules.init('search'), rules.child('search', ['read'])],
    });
    run = agent.run('Go');
    const result = await run.result;
    // No shared-state child (nothing used the shared state): the model caller, the rules' machine and the tool runner.
    expect(children).toEqual(['model', 'toolRules', 'toolRunner']);
    expect(result.toolCalls.map((record) => [record.call.name, record.refusedBy ?? null])).toEqual([
      ['search', null],
      ['search', 'child'],
    ]);
  });
});

describe('tool rules across persistence', () => {
  it('a run waiting on a requiresApproval rule resumes from JSON with its rule state', async () => {
    executed.length = 0;
    const script = [{ toolCalls: [{ name: 'search' }] }, { toolCalls: [{ name: 'delete' }] }, { toolCalls: [{ name: 'search' }] }, { text: 'ok' }];
    const make = () =>
      createAgent({
        name: 'a',
        model: scriptedModel(script),
        tools: [tool('search'), tool('delete')],
        toolRules: [rules.init('search'), rules.requiresApproval('delete'), rules.maxCount('search', 1)],
      });
    const run = make().run('Go');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.pendingApprovals.map((request) => request.toolName)).toEqual(['delete']);
    const saved = JSON.parse(JSON.stringify(run.persist())) as unknown;
    run.abort();
    await run.result;

    executed.length = 0;
    const agent = make();
    // The resumed run's model continues the script from its third turn.
    const resumed = createAgent({
      name: 'a',
      model: scriptedModel(script.slice(2)),
      tools: agent.tools,
      toolRules: [rules.init('search'), rules.requiresApproval('delete'), rules.maxCount('search', 1)],
    }).resume(saved);
    resumed.approve(resumed.pendingApprovals[0]?.id ?? '');
    const result = await resumed.result;
    expect(executed).toEqual(['delete']);
    // search was used up before the snapshot: the resumed rules still know it.
    expect(result.toolCalls.at(-1)).toMatchObject({ call: { name: 'search' }, refusedBy: 'maxCount' });
  });
});
