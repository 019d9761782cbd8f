import { defineTool, rules } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { factorial, fibonacci, loadMathTools } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropTable, eventsOf, recordEvents, waitForState } from './helpers.js';

const offered = (model: ReturnType<typeof scriptedModel>) => model.requests.map((request) => request.tools.map((tool) => tool.name));

describe('tool control under tool rules', () => {
  it('tool rules still govern added tools: an added tool a rule forbids is neither offered nor run', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'load_math_tools' }] },
      { toolCalls: [{ name: 'fibonacci', arguments: { n: 5 } }] },
      { toolCalls: [{ name: 'factorial', arguments: { n: 5 } }] },
      { text: '5! = 120' },
    ]);
    const agent = createAgent({
      name: 'math',
      model,
      tools: [loadMathTools],
      addableTools: [factorial, fibonacci],
      toolRules: [rules.child('load_math_tools', ['factorial'])],
    });
    const run = agent.run('5!');
    const events = recordEvents(run);
    const result = await run.result;

    expect(offered(model)).toEqual([['load_math_tools'], ['factorial'], ['factorial'], ['load_math_tools', 'factorial', 'fibonacci']]);
    expect(result.toolCalls.map((record) => [record.call.name, record.refusedBy ?? null])).toEqual([
      ['load_math_tools', null],
      ['fibonacci', 'child'],
      ['factorial', null],
    ]);
    expect(eventsOf(events, 'tool.refused').map((event) => event.call.name)).toEqual(['fibonacci']);
  });

  it('rules can name addable tools; allowedTools can too', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ name: 'math', model, tools: [loadMathTools], toolRules: [rules.child('load_math_tools', ['factorial'])] })).toThrow(
      /factorial/,
    );
    const agent = createAgent({ name: 'math', model, tools: [loadMathTools], addableTools: [factorial] });
    expect(() => agent.run('go', { toolChoice: { mode: 'auto', allowedTools: ['load_math_tools', 'factorial'] } })).not.toThrow();
  });

  it('approval never admits a call that the tool rules refuse: it is not even asked about', async () => {
    const executed: string[] = [];
    const backup = defineTool({
      name: 'backup',
      description: 'Backs up.',
      parameters: z.object({}),
      execute: () => {
        executed.push('backup');
        return 'backed up';
      },
    });
    const wipe = defineTool({
      name: 'wipe',
      description: 'Wipes the disk.',
      parameters: z.object({}),
      approval: 'always',
      execute: () => {
        executed.push('wipe');
        return 'wiped';
      },
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'w1', name: 'wipe' },
          { id: 'b1', name: 'backup' },
        ],
      },
      { toolCalls: [{ id: 'w2', name: 'wipe' }] },
      { text: 'done' },
    ]);
    const agent = createAgent({ name: 'ops', model, tools: [backup, wipe], toolRules: [rules.init('backup')] });
    const run = agent.run('Wipe the disk.');
    const events = recordEvents(run);
    await waitForState(run, 'awaitingApproval');

    // The first batch: wipe was refused (init rule) and never asked about; backup ran.
    expect(eventsOf(events, 'approval.requested').map((event) => event.id)).toEqual(['w2']);
    expect(executed).toEqual(['backup']);
    run.approve('w2');
    const result = await run.result;
    expect(executed).toEqual(['backup', 'wipe']);
    expect(result.toolCalls.map((record) => [record.call.id, record.refusedBy ?? null])).toEqual([
      ['w1', 'init'],
      ['b1', null],
      ['w2', null],
    ]);
  });

  it('a requiresApproval rule waits through the same approval API; rejecting it never runs the call', async () => {
    const executed: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ id: 'd', name: 'drop_table', arguments: { table: 'users' } }] }, { text: 'ok' }]);
    const agent = createAgent({ name: 'dba', model, tools: [dropTable(executed)], toolRules: [rules.requiresApproval('drop_table')] });
    const run = agent.run('Drop users');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals).toEqual([{ id: 'd', toolName: 'drop_table', arguments: { table: 'users' }, step: 1 }]);
    run.reject('d', 'not in production');
    const result = await run.result;
    expect(executed).toEqual([]);
    expect(result.toolCalls[0]?.content).toBe('The call of "drop_table" was rejected by the user and did not run. Reason: not in production');
  });

  it('a run with rules resumes from a snapshot with its rule state', async () => {
    const executed: string[] = [];
    const tool = (name: string, approval: 'always' | 'never' = 'never') =>
      defineTool({
        name,
        description: name,
        parameters: z.object({}),
        approval,
        execute: () => {
          executed.push(name);
          return `${name} done`;
        },
      });
    const make = () => {
      const model = scriptedModel((request) => {
        const done = request.messages.filter((message) => message.role === 'tool').length;
        return done === 0
          ? { toolCalls: [{ id: 'p', name: 'plan' }] }
          : done === 1
            ? { toolCalls: [{ id: 'x', name: 'execute_plan' }] }
            : { text: 'all done' };
      });
      const agent = createAgent({
        name: 'planner',
        model,
        tools: [tool('plan', 'always'), tool('execute_plan'), tool('chat')],
        toolRules: [rules.init('plan'), rules.child('plan', ['execute_plan'])],
      });
      return { agent, model };
    };
    const first = make().agent.run('go');
    await waitForState(first, 'awaitingApproval');
    const snapshot = JSON.parse(JSON.stringify(first.persist()));
    first.abort();

    const { agent, model } = make();
    const resumed = agent.resume(snapshot);
    resumed.approve('p');
    const result = await resumed.result;
    expect(executed).toEqual(['plan', 'execute_plan']);
    expect(result.text).toBe('all done');
    // After plan, the child rule (restored with the run) offers only execute_plan.
    expect(offered(model)[0]).toEqual(['execute_plan']);
    expect(model.requests[0]?.toolChoice).toEqual({ type: 'tool', name: 'execute_plan' });
  });
});
