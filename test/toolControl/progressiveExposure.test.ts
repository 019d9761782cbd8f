import { AgentchartError, DuplicateToolError, RunEventSchema, ToolExposureError, defineTool, directToolContext } from '@agentchart/core';
import { LiveToolSet, createAgent } from '@agentchart/actors';
import { factorial, fibonacci, loadMathTools } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { eventsOf, recordEvents, simpleTool } from './helpers.js';

const offeredPerRequest = (model: { requests: readonly { tools: readonly { name: string }[] }[] }) =>
  model.requests.map((request) => request.tools.map((tool) => tool.name));

describe('progressive tool exposure (ctx.tools / ctx.addTools / ctx.removeTools)', () => {
  it('next-iteration effect: the model sees added tools from its next call on', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'load_math_tools' }] },
      { toolCalls: [{ name: 'factorial', arguments: { n: 5 } }] },
      { text: '5! is 120.' },
    ]);
    const agent = createAgent({ name: 'math', model, tools: [loadMathTools] });
    const run = agent.run('What is 5 factorial?');
    const events = recordEvents(run);
    const result = await run.result;

    expect(offeredPerRequest(model)).toEqual([
      ['load_math_tools'],
      ['load_math_tools', 'factorial', 'fibonacci'],
      ['load_math_tools', 'factorial', 'fibonacci'],
    ]);
    expect(result.toolCalls.map((record) => record.content)).toEqual(['Loaded math tools: factorial, fibonacci. You can now call them.', '5! = 120']);
    expect(eventsOf(events, 'tools.changed')).toEqual([
      {
        type: 'tools.changed',
        runId: run.runId,
        agent: 'math',
        step: 1,
        callId: 'call_0_0',
        added: ['factorial', 'fibonacci'],
        removed: [],
        tools: ['load_math_tools', 'factorial', 'fibonacci'],
      },
    ]);
    for (const event of events) expect(RunEventSchema.parse(event)).toEqual(event);
  });

  it('current batch: every call of the batch runs against the list the model was offered', async () => {
    const locked = simpleTool('locked', 'locked ran');
    const lock = defineTool({
      name: 'lock',
      description: 'Removes locked and adds factorial.',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        ctx.removeTools('locked');
        ctx.addTools(factorial);
        return 'locked away';
      },
    });
    const model = scriptedModel([
      // lock runs first, yet `locked` (offered for this batch) still runs, and
      // `factorial` (not offered yet) is unknown to this batch.
      { toolCalls: [{ name: 'lock' }, { name: 'locked' }, { name: 'factorial', arguments: { n: 3 } }] },
      { text: 'done' },
    ]);
    const result = await createAgent({ name: 'gate', model, tools: [lock, locked] }).run('go').result;

    expect(result.toolCalls.map((record) => [record.call.name, record.content, record.isError])).toEqual([
      ['lock', 'locked away', false],
      ['locked', 'locked ran', false],
      ['factorial', 'Unknown tool "factorial". Available tools: lock, locked.', true],
    ]);
    expect(offeredPerRequest(model)).toEqual([
      ['lock', 'locked'],
      ['lock', 'factorial'],
    ]);
  });

  it('duplicate names: re-adding the same tool object does nothing', async () => {
    const readd = defineTool({
      name: 'readd',
      description: 'Adds factorial twice and itself.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.addTools(factorial);
        ctx.addTools([factorial, readd]);
        return ctx.tools?.map((tool) => tool.name).join(',') ?? 'none';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'readd' }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'dup', model, tools: [readd] }).run('go');
    const events = recordEvents(run);
    const result = await run.result;

    expect(result.toolCalls[0]?.content).toBe('readd,factorial');
    expect(eventsOf(events, 'tools.changed').map((event) => event.added)).toEqual([['factorial']]);
    expect(offeredPerRequest(model)[1]).toEqual(['readd', 'factorial']);
  });

  it('duplicate names: a different tool with a present name throws and changes nothing; a list is all-or-nothing', async () => {
    const otherFactorial = simpleTool('factorial', 'impostor');
    const thrown: unknown[] = [];
    const clash = defineTool({
      name: 'clash',
      description: 'Tries to add a list with a clashing name in the middle.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        for (const attempt of [[fibonacci, otherFactorial, simpleTool('extra')], otherFactorial]) {
          try {
            ctx.addTools(attempt);
          } catch (error) {
            thrown.push(error);
          }
        }
        return ctx.tools?.map((tool) => tool.name).join(',') ?? 'none';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'clash' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'dup', model, tools: [clash, factorial] }).run('go').result;

    expect(thrown).toHaveLength(2);
    for (const error of thrown) {
      expect(error).toBeInstanceOf(DuplicateToolError);
      expect((error as DuplicateToolError).code).toBe('TOOL_NAME_DUPLICATE');
      expect((error as DuplicateToolError).toolName).toBe('factorial');
    }
    expect(result.toolCalls[0]?.content).toBe('clash,factorial');
    expect(offeredPerRequest(model)[1]).toEqual(['clash', 'factorial']);
  });

  it('a duplicate within one list (two objects, one name) adds nothing', () => {
    const live = new LiveToolSet([]);
    expect(() => live.add([simpleTool('twin'), simpleTool('twin')])).toThrow(DuplicateToolError);
    expect(live.names()).toEqual([]);
  });

  it('removing names that are not present does nothing; tools can be removed by name, object or list', async () => {
    const a = simpleTool('a');
    const b = simpleTool('b');
    const c = simpleTool('c');
    const prune = defineTool({
      name: 'prune',
      description: 'Removes tools.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.removeTools('not_there');
        ctx.removeTools([simpleTool('ghost'), 'nobody']);
        const untouched = ctx.tools?.length;
        ctx.removeTools(a);
        ctx.removeTools(['b', c]);
        return `${untouched} → ${ctx.tools?.map((tool) => tool.name).join(',')}`;
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'prune' }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'prune', model, tools: [prune, a, b, c] }).run('go');
    const events = recordEvents(run);
    const result = await run.result;

    expect(result.toolCalls[0]?.content).toBe('4 → prune');
    expect(eventsOf(events, 'tools.changed').map((event) => event.removed)).toEqual([['a'], ['b', 'c']]);
    expect(offeredPerRequest(model)[1]).toEqual(['prune']);
  });

  it('ctx.tools is a copy: changing the array does not change the run', async () => {
    const meddle = defineTool({
      name: 'meddle',
      description: 'Mutates the array it was given.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        (ctx.tools as unknown as unknown[]).length = 0;
        return String(ctx.tools?.length);
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'meddle' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'copy', model, tools: [meddle] }).run('go').result;
    expect(result.toolCalls[0]?.content).toBe('1');
    expect(offeredPerRequest(model)[1]).toEqual(['meddle']);
  });

  it('error outside the loop: a tool executed directly has no live list and the helpers throw a clear error', async () => {
    const ctx = directToolContext({ toolName: 'load_math_tools' });
    expect(ctx.tools).toBeUndefined();
    await expect(async () => loadMathTools.execute({}, ctx)).rejects.toThrow(ToolExposureError);
    let error: unknown;
    try {
      ctx.removeTools('factorial');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AgentchartError);
    expect((error as AgentchartError).code).toBe('TOOL_EXPOSURE_OUTSIDE_RUN');
    expect((error as Error).message).toBe(
      'ctx.removeTools() was called by tool "load_math_tools" outside an agent run. It changes the tool list of the run that ' +
        'executes the tool, and this call has none (the tool was executed directly). Only call it from a tool an agent runs, ' +
        'or check `ctx.tools !== undefined` first.',
    );
  });

  it('per-run scope: every run starts from the agent’s list, which is never mutated, so gates re-arm', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'load_math_tools' }] }, { text: 'loaded' }, { text: 'second run' }]);
    const initial = [loadMathTools];
    const agent = createAgent({ name: 'math', model, tools: initial });
    await agent.run('load').result;
    await agent.run('again').result;

    expect(offeredPerRequest(model)).toEqual([['load_math_tools'], ['load_math_tools', 'factorial', 'fibonacci'], ['load_math_tools']]);
    expect(agent.tools.map((tool) => tool.name)).toEqual(['load_math_tools']);
    expect(initial).toEqual([loadMathTools]);
  });

  it('concurrent runs of one agent each have their own list', async () => {
    const model = scriptedModel((request) =>
      request.messages.some((message) => message.role === 'tool')
        ? { text: request.tools.map((tool) => tool.name).join(',') }
        : request.messages[0]?.content === 'load'
          ? { toolCalls: [{ name: 'load_math_tools' }], latencyMs: 5 }
          : { toolCalls: [{ name: 'fibonacci' }], latencyMs: 10 },
    );
    const agent = createAgent({ name: 'math', model, tools: [loadMathTools] });
    const [loaded, other] = await Promise.all([agent.run('load').result, agent.run('other').result]);
    expect(loaded.text).toBe('load_math_tools,factorial,fibonacci');
    expect(other.toolCalls[0]?.content).toBe('Unknown tool "fibonacci". Available tools: load_math_tools.');
    expect(other.text).toBe('load_math_tools');
  });

  it('experimental state: unlike the reference, the helpers are stable API and emit no warning', async () => {
    const warnings: unknown[] = [];
    const onWarning = (warning: unknown) => warnings.push(warning);
    process.on('warning', onWarning);
    const emitWarning = vi.spyOn(process, 'emitWarning');
    try {
      const model = scriptedModel([{ toolCalls: [{ name: 'load_math_tools' }] }, { text: 'ok' }]);
      await createAgent({ name: 'math', model, tools: [loadMathTools] }).run('go').result;
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
      emitWarning.mockRestore();
    }
    expect(emitWarning).not.toHaveBeenCalled();
    expect(warnings).toEqual([]);
  });

  it('CodeAct exclusion: there is no code-execution surface; the helpers exist only inside the agent’s tool loop', async () => {
    // The closest equivalent of a CodeAct sandbox is code that calls a tool
    // itself rather than through the loop: it gets no live list.
    const sandboxed = defineTool({
      name: 'sandboxed',
      description: 'Calls the loader itself instead of letting the agent do it.',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        try {
          await loadMathTools.execute({}, directToolContext({ toolName: 'load_math_tools', runId: ctx.runId }));
          return 'loaded';
        } catch (error) {
          return (error as AgentchartError).code;
        }
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'sandboxed' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'sandbox', model, tools: [sandboxed] }).run('go').result;
    expect(result.toolCalls[0]?.content).toBe('TOOL_EXPOSURE_OUTSIDE_RUN');
    expect(offeredPerRequest(model)[1]).toEqual(['sandboxed']);
  });

  it('tools and addableTools that are not lists of defineTool tools are refused with a clear error', () => {
    const model = scriptedModel([{ text: 'ok' }]);
    expect(() => createAgent({ name: 'math', model, tools: 'load_math_tools' as never })).toThrow(
      'createAgent({ name: "math", tools }) takes a list of tools made with defineTool(...).',
    );
    expect(() => createAgent({ name: 'math', model, tools: [loadMathTools], addableTools: [factorial, null] as never })).toThrow(
      'createAgent({ name: "math", addableTools }) takes a list of tools made with defineTool(...).',
    );
  });
});
