import { type AgentRun, createAgent } from '@agentchart/actors';
import { type RunEvent, defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// A step whose reply needs no decision is "fused" (docs/performance.md): the model caller takes the reply and runs
// its batch, and the machine gets one event. An inspected run takes the full path. Both must be indistinguishable
// from outside: same events in the same order, same result.

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => a + b,
});
const slowEcho = defineTool({
  name: 'echo',
  description: 'Echoes after a while.',
  parameters: z.object({ text: z.string(), ms: z.number() }),
  execute: ({ text, ms }) => new Promise<string>((resolve) => setTimeout(() => resolve(text), ms)),
});
const explode = defineTool({
  name: 'explode',
  description: 'Always fails.',
  parameters: z.object({}),
  execute: () => {
    throw new Error('the fuse was wet');
  },
});
const double = defineTool({
  name: 'double',
  description: 'Doubles a number.',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => 2 * n,
});
const loader = defineTool({
  name: 'load_more',
  description: 'Adds a tool.',
  parameters: z.object({}),
  execute: async (_args, ctx) => {
    // Reported while the batch starts (inside the step's own work), then after a tick.
    ctx.reportProgress({ progress: 1, total: 2, message: 'loading' });
    ctx.addTools([double]);
    await Promise.resolve();
    ctx.reportProgress({ progress: 2, total: 2 });
    return 'loaded';
  },
});

const script = () =>
  scriptedModel([
    { text: 'Adding.', toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }], usage: { inputTokens: 10, outputTokens: 2 } },
    // Parallel calls settling out of call order; the same id as before (made unique); an error; a bad argument.
    {
      toolCalls: [
        { id: 'c2', name: 'echo', arguments: { text: 'slow', ms: 15 } },
        { id: 'c1', name: 'echo', arguments: { text: 'fast', ms: 1 } },
        { id: 'c3', name: 'explode', arguments: {} },
        { id: 'c4', name: 'add', arguments: { a: 'one' } },
      ],
    },
    { reasoning: 'Need more tools.', toolCalls: [{ id: 'c5', name: 'load_more', arguments: {} }] },
    { text: 'It is 3.', usage: { inputTokens: 30, outputTokens: 4 } },
  ]);

/** The run's events and result, with the run id (random) replaced. */
async function observe(run: AgentRun) {
  const events = firstValueFrom(run.events$.pipe(toArray()));
  const states: string[] = [];
  run.actor.subscribe((snapshot) => {
    const value = String(snapshot.value);
    if (states.at(-1) !== value) states.push(value);
  });
  const result = await run.result;
  const neutral = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(run.runId, 'RUN'));
  return { events: neutral(await events) as RunEvent[], result: neutral(result), states };
}

describe('fused steps', () => {
  it('emit the same events in the same order, and give the same result, as the full path an inspector sees', async () => {
    const tools = [add, slowEcho, explode];
    const fused = await observe(createAgent({ name: 'calc', model: script(), tools, instructions: 'Add.' }).run('1+2?'));
    const inspected: string[] = [];
    const full = await observe(
      createAgent({ name: 'calc', model: script(), tools: [...tools, loader], addableTools: [double], instructions: 'Add.' }).run('1+2?', {
        inspect: (event) => inspected.push(event.type),
      }),
    );
    const fusedWithLoader = await observe(
      createAgent({ name: 'calc', model: script(), tools: [...tools, loader], addableTools: [double], instructions: 'Add.' }).run('1+2?'),
    );

    expect(fusedWithLoader.events).toEqual(full.events);
    expect(fusedWithLoader.result).toEqual(full.result);
    expect(fusedWithLoader.result.stopReason).toBe('completed');
    expect(fusedWithLoader.result.text).toBe('It is 3.');
    expect(full.events.filter((event) => event.type === 'tools.changed')).toHaveLength(1);
    expect(full.events.filter((event) => event.type === 'tool.progress').map((event) => event.type === 'tool.progress' && event.progress)).toEqual([
      1, 2,
    ]);
    expect(full.events.map((event) => event.type === 'tool.result' && event.callId).filter(Boolean)).toEqual(['c1', 'c4', 'c3', 'c1~2', 'c2', 'c5']);
    // The full path moves through its states; the fused run stays in `thinking` from the first call to the answer.
    expect(full.states).toEqual(['idle', 'thinking', 'acting', 'thinking', 'acting', 'thinking', 'acting', 'thinking', 'done']);
    expect(fusedWithLoader.states).toEqual(['idle', 'thinking', 'done']);
    expect(inspected.length).toBeGreaterThan(0);
    // Without the loader the third reply calls an unknown tool: still the same shape of run.
    expect(fused.result.toolCalls.at(-1)).toMatchObject({ call: { name: 'load_more' }, isError: true });
  });

  it('an abort while a fused batch runs keeps what came back and answers the rest, as from acting', async () => {
    const model = () =>
      scriptedModel([
        {
          toolCalls: [
            { id: 'a', name: 'add', arguments: { a: 1, b: 1 } },
            { id: 'b', name: 'echo', arguments: { text: 'never', ms: 10_000 } },
          ],
        },
        { text: 'never' },
      ]);
    const runs = [undefined, () => undefined].map((inspect) => {
      const run = createAgent({ name: 'calc', model: model(), tools: [add, slowEcho] }).run('go', inspect ? { inspect } : {});
      run.events$.subscribe((event) => {
        if (event.type === 'tool.result' && event.callId === 'a') run.abort();
      });
      return observe(run);
    });
    const [fused, full] = await Promise.all(runs);
    expect(fused?.events).toEqual(full?.events);
    expect(fused?.result).toEqual(full?.result);
    expect(fused?.result.stopReason).toBe('aborted');
    expect(fused?.result.toolCalls.map((record: { content: string }) => record.content)).toEqual([
      '2',
      'The run was aborted before this call returned a result.',
    ]);
  });

  it('steps that need a decision take the full path: a call that needs approval, a limit', async () => {
    const careful = defineTool({
      name: 'careful',
      description: 'Needs a yes.',
      parameters: z.object({}),
      approval: 'always',
      execute: () => 'done carefully',
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'x', name: 'add', arguments: { a: 1, b: 1 } }] },
      { toolCalls: [{ id: 'y', name: 'careful', arguments: {} }] },
      { toolCalls: [{ id: 'z', name: 'add', arguments: { a: 2, b: 2 } }] },
      { text: 'done' },
    ]);
    const run = createAgent({ name: 'calc', model, tools: [add, careful], maxToolCalls: 2 }).run('go');
    run.events$.subscribe((event) => {
      if (event.type === 'approval.requested') queueMicrotask(() => run.approve(event.id));
    });
    const { result, states } = await observe(run);
    // The first step is fused (thinking → thinking); the approval and the limit show as states.
    expect(states).toEqual(['idle', 'thinking', 'screening', 'awaitingApproval', 'acting', 'thinking', 'limitReached']);
    expect(result.stopReason).toBe('max-tool-calls');
    expect(result.toolCalls.map((record: { content: string }) => record.content)).toEqual([
      '2',
      'done carefully',
      'Not executed: the run reached its limit of 2 tool calls (maxToolCalls), and tools are disabled for the rest of the run.',
    ]);
  });
});
