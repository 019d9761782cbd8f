import { createAgent } from '@agentchart/actors';
import { ToolRulesError, compileToolRules, defineTool, initialToolRuleState, rules } from '@agentchart/core';
import { unnamedToolBlock } from '@agentchart/core/internal';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsOf, recordEvents, waitForState } from '../toolControl/helpers.js';

/** A tool that records its name when it runs. */
const recorded = (name: string, executed: string[]) =>
  defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: z.object({}),
    execute: () => {
      executed.push(name);
      return `${name} ran`;
    },
  });

/** `arm` adds `nuke`, a tool the rules were not compiled with. */
const armingTool = (nuke: ReturnType<typeof recorded>) =>
  defineTool({
    name: 'arm',
    description: 'Adds nuke.',
    parameters: z.object({}),
    execute: (_args, ctx) => {
      ctx.addTools(nuke);
      return 'armed';
    },
  });

const offered = (model: ReturnType<typeof scriptedModel>) => model.requests.map((request) => request.tools.map((tool) => tool.name));

describe('tools the rules do not name (added during a run)', () => {
  it('the repro: [answer, nuke] under terminal(answer) — the terminal tool ends the batch, nuke is refused', async () => {
    const executed: string[] = [];
    const nuke = recorded('nuke', executed);
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'arm', arguments: {} }] },
      {
        toolCalls: [
          { id: 'b', name: 'answer', arguments: {} },
          { id: 'c', name: 'nuke', arguments: {} },
        ],
      },
    ]);
    const agent = createAgent({ name: 'r', model, tools: [armingTool(nuke), recorded('answer', executed)], toolRules: [rules.terminal('answer')] });
    const run = agent.run('Go.');
    const events = recordEvents(run);
    const result = await run.result;
    expect(executed).toEqual(['answer']);
    expect(result.stopReason).toBe('terminal-tool');
    const [refused] = eventsOf(events, 'tool.refused');
    expect(refused?.call.name).toBe('nuke');
    expect(refused?.rule).toBe('terminal');
    expect(refused?.content).toBe('Tool "nuke" was not run: the run has ended (rule: terminal). No tool may be called now.');
  });

  it('the repro: pay waits for approval under requiresApproval; nuke later in the batch is refused, and still not run after a rejection', async () => {
    const executed: string[] = [];
    const nuke = recorded('nuke', executed);
    const model = scriptedModel([
      { toolCalls: [{ id: 'a', name: 'arm', arguments: {} }] },
      {
        toolCalls: [
          { id: 'p', name: 'pay', arguments: {} },
          { id: 'n', name: 'nuke', arguments: {} },
        ],
      },
      { text: 'ok' },
    ]);
    const agent = createAgent({ name: 'r', model, tools: [armingTool(nuke), recorded('pay', executed)], toolRules: [rules.requiresApproval('pay')] });
    const run = agent.run('Go.');
    const events = recordEvents(run);
    await waitForState(run, 'awaitingApproval');
    run.reject('p', 'no');
    const result = await run.result;
    expect(executed).toEqual([]);
    expect(eventsOf(events, 'tool.refused').map((event) => [event.call.name, event.rule])).toEqual([['nuke', 'requiresApproval']]);
    expect(result.stopReason).toBe('completed');
  });

  it('where the rules constrain the choice (init, child, chosen conditional), an unnamed tool is neither offered nor run', async () => {
    const executed: string[] = [];
    const nuke = recorded('nuke', executed);
    const model = scriptedModel([
      { toolCalls: [{ name: 'arm', arguments: {} }] },
      { toolCalls: [{ name: 'nuke', arguments: {} }] },
      { toolCalls: [{ name: 'read', arguments: {} }] },
      { toolCalls: [{ name: 'nuke', arguments: {} }] },
      { text: 'done' },
    ]);
    const agent = createAgent({
      name: 'r',
      model,
      tools: [armingTool(nuke), recorded('read', executed)],
      toolRules: [rules.init('arm'), rules.child('arm', ['read'])],
    });
    const run = agent.run('Go.');
    const events = recordEvents(run);
    await run.result;
    // After arm only read may follow: nuke is not offered and its call is refused; after read the choice is free.
    expect(offered(model)).toEqual([['arm'], ['read'], ['read'], ['arm', 'read', 'nuke'], ['arm', 'read', 'nuke']]);
    expect(eventsOf(events, 'tool.refused').map((event) => [event.call.name, event.rule])).toEqual([['nuke', 'child']]);
    expect(executed).toEqual(['read', 'nuke']);
  });

  it("with unnamedTools: 'refuse' no unnamed tool is offered or run, even where the choice is free", async () => {
    const executed: string[] = [];
    const nuke = recorded('nuke', executed);
    const model = scriptedModel([
      { toolCalls: [{ name: 'arm', arguments: {} }] },
      { toolCalls: [{ name: 'nuke', arguments: {} }] },
      { text: 'done' },
    ]);
    const agent = createAgent({
      name: 'r',
      model,
      tools: [armingTool(nuke)],
      toolRules: [rules.maxCount('arm', 5)],
      unnamedTools: 'refuse',
    });
    expect(agent.toolRules?.unnamedTools).toBe('refuse');
    const run = agent.run('Go.');
    const events = recordEvents(run);
    await run.result;
    expect(offered(model)).toEqual([['arm'], ['arm'], ['arm']]);
    const [refused] = eventsOf(events, 'tool.refused');
    expect(refused?.rule).toBe('unnamedTool');
    expect(refused?.content).toBe(
      'Tool "nuke" was not run: nuke is not named by the tool rules, which allow only the tools they were compiled with (rule: unnamedTool). Tools you may call now: arm.',
    );
    expect(executed).toEqual([]);
  });

  it('an unnamed call leaves the rule state as it was, and unknown tools are still answered "unknown tool"', () => {
    const compiled = compileToolRules([rules.init('a')], ['a']);
    expect(unnamedToolBlock(compiled.program, initialToolRuleState(), 'where-free', 'x')?.rule).toBe('init');
    const free = compileToolRules([rules.terminal('a')], ['a']);
    expect(unnamedToolBlock(free.program, initialToolRuleState(), 'where-free', 'x')).toBeNull();
    expect(free.unnamedTools).toBe('where-free');
    expect(() => compileToolRules([], ['a'], { unnamedTools: 'sometimes' as never })).toThrow(ToolRulesError);
    const model = scriptedModel([]);
    expect(() => createAgent({ name: 'r', model, toolRules: [], unnamedTools: 'sometimes' as never })).toThrow(
      `createAgent({ name: "r" }): unnamedTools must be 'where-free' or 'refuse'; got "sometimes".`,
    );
  });
});
