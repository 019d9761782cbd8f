import { type AgentOptions, type AgentRun, type RunOptions, type ToolSource, createAgent } from '@agentchart/actors';
import { type AnyTool, type RunEvent, defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentContext } from '../../packages/actors/src/agent/machine/agentContext.js';
import { agentContextNow } from '../../packages/actors/src/agent/machine/fusedStep.js';

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
  const follow = () =>
    run.actor.subscribe((snapshot) => {
      const value = String(snapshot.value);
      if (states.at(-1) !== value) states.push(value);
    });
  // A run with tool sources has its actor once they are loaded: its states are then followed from its first event.
  try {
    follow();
  } catch {
    const first = run.events$.subscribe(() => {
      first.unsubscribe();
      follow();
    });
  }
  const result = await run.result;
  // A tool error's stack ends in whatever task the batch happened to start from (a timer or a microtask): left out.
  const neutral = (value: unknown) =>
    JSON.parse(JSON.stringify(value).replaceAll(run.runId, 'RUN'), (key, item) => (key === 'stack' ? undefined : item));
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
    expect(full.events.map((event) => event.type === 'tool.result' && event.callId).filter(Boolean)).toEqual(['c1', 'c3', 'c4', 'c1~2', 'c2', 'c5']);
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

  it('a fused loop stays in thinking: the machine hears of it at its end, and agentContextNow reads the step in flight', async () => {
    const steps = 6;
    const model = scriptedModel((_request, index) =>
      index < steps ? { toolCalls: [{ id: `c${index}`, name: 'add', arguments: { a: index, b: 1 } }] } : { text: 'done' },
    );
    const run = createAgent({ name: 'calc', model, tools: [add] }).run('go');
    const seen: { step: number; machineStep: number; nowStep: number; nowMessages: number }[] = [];
    const machineEvents: string[] = [];
    run.actor.subscribe((snapshot) => machineEvents.push(String(snapshot.value)));
    run.events$.subscribe((event) => {
      if (event.type !== 'tool.result') return;
      const context = run.actor.getSnapshot().context as AgentContext;
      const now = agentContextNow(context);
      seen.push({ step: event.step, machineStep: context.step, nowStep: now.step, nowMessages: now.messages.length });
    });
    const result = await run.result;
    expect(result.stopReason).toBe('completed');
    expect(result.toolCalls.map((record: { content: string }) => record.content)).toEqual(['1', '2', '3', '4', '5', '6']);
    // The machine started step 1 and heard nothing more until the answer: its snapshot stayed at step 1.
    expect(seen.map((entry) => entry.machineStep)).toEqual([1, 1, 1, 1, 1, 1]);
    // The step in flight, as a chat's partial turn reads it: its number, and its reply in the transcript.
    expect(seen.map((entry) => entry.nowStep)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.map((entry) => entry.nowMessages)).toEqual([2, 4, 6, 8, 10, 12]);
    // Snapshots: idle, the start, the answer (which carries the loop's steps).
    expect(machineEvents).toEqual(['idle', 'thinking', 'done']);
  });

  describe('a fused loop is indistinguishable from the full path', () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => text,
    });
    const careful = defineTool({ name: 'careful', description: 'Needs a yes.', parameters: z.object({}), approval: 'always', execute: () => 'ok' });
    const lone = defineTool({ name: 'lone', description: 'Alone.', parameters: z.object({}), oneCallAtATime: true, execute: () => 'alone' });
    const echoCall = (index: number) => ({ id: `e${index}`, name: 'echo', arguments: { text: `t${index}` } });
    const usage = { inputTokens: 10, outputTokens: 5 };

    /** Runs the same agent twice, fused and inspected (full path), with `setup` on each run; both runs' events and results. */
    async function bothPaths(
      options: () => Omit<AgentOptions, 'name'>,
      setup: (run: AgentRun) => void = () => undefined,
      runOptions: RunOptions = {},
    ) {
      const [fused, full] = await Promise.all(
        [false, true].map((inspect) => {
          const run = createAgent({ name: 'loop', ...options() }).run('go', inspect ? { ...runOptions, inspect: () => undefined } : runOptions);
          setup(run);
          return observe(run);
        }),
      );
      expect(fused?.events).toEqual(full?.events);
      expect(fused?.result).toEqual(full?.result);
      return { fused: fused as Awaited<ReturnType<typeof observe>>, full: full as Awaited<ReturnType<typeof observe>> };
    }

    const fiveSteps = () => ({
      model: scriptedModel([
        ...[1, 2, 3, 4, 5].map((index) => ({ text: `step ${index}`, toolCalls: [echoCall(index)], usage })),
        { text: 'done', usage },
      ]),
      tools: [echo],
    });

    it('aborted at any event of a five-step loop: the same events and transcript', async () => {
      const { full } = await bothPaths(fiveSteps);
      expect(full.result.stopReason).toBe('completed');
      const count = full.events.length;
      // Every event but run.started, the first model.request and run.finished: an abort from a listener of it.
      // (An abort from a listener of the first step's model.request, with a model that replies synchronously,
      // reaches the machine after the first reply on the fused path, and before it on the full path: the model
      // caller makes that call inside the machine's own step, and cannot see the abort waiting in its mailbox.)
      const stops: string[] = [];
      for (let at = 2; at < count - 1; at++) {
        const { fused } = await bothPaths(fiveSteps, (run) => {
          let index = 0;
          run.events$.subscribe(() => {
            if (index++ === at) run.abort();
          });
        });
        stops.push(fused.result.stopReason);
      }
      // Aborted at every event up to the last model.request; after it the (synchronous) answer is in first.
      const answered = full.events.map((event) => event.type).lastIndexOf('model.request');
      expect(stops).toEqual([...Array(answered - 1).fill('aborted'), ...Array(count - 2 - answered).fill('completed')]);
    });

    it('aborted while a loop step waits for its model call or its tool', async () => {
      const slow = () => ({
        model: scriptedModel([...[1, 2, 3].map((index) => ({ toolCalls: [echoCall(index)], latencyMs: 5 })), { text: 'done' }]),
        tools: [echo],
      });
      const { fused } = await bothPaths(slow, (run) => {
        run.events$.subscribe((event) => {
          if (event.type === 'model.request' && event.step === 3) setTimeout(() => run.abort(), 1);
        });
      });
      expect(fused.result.stopReason).toBe('aborted');
      expect(fused.result.toolCalls).toHaveLength(2);
    });

    it('limits reached mid-loop: maxSteps, maxToolCalls, the token budget, maxConsecutiveErrors', async () => {
      const maxSteps = await bothPaths(() => ({ ...fiveSteps(), maxSteps: 3 }));
      expect(maxSteps.fused.result.stopReason).toBe('max-steps');
      expect(maxSteps.fused.result.toolCalls).toHaveLength(3);

      const maxToolCalls = await bothPaths(() => ({ ...fiveSteps(), maxToolCalls: 3 }));
      expect(maxToolCalls.fused.result.stopReason).toBe('max-tool-calls');
      expect(maxToolCalls.fused.result.toolCalls.map((record: { content: string }) => record.content)).toEqual([
        't1',
        't2',
        't3',
        'Not executed: the run reached its limit of 3 tool calls (maxToolCalls), and tools are disabled for the rest of the run.',
      ]);

      const tokens = await bothPaths(() => ({ ...fiveSteps(), maxTokens: 40 }));
      expect(tokens.fused.result.stopReason).toBe('token-budget');
      expect(tokens.fused.result.toolCalls).toHaveLength(3);

      const failing = defineTool({
        name: 'echo',
        description: 'Fails from the second call on.',
        parameters: z.object({ text: z.string() }),
        execute: async ({ text }) => {
          if (text !== 't1') throw new Error(`no ${text}`);
          return text;
        },
      });
      const errors = await bothPaths(() => ({ ...fiveSteps(), tools: [failing], maxConsecutiveErrors: 2 }));
      expect(errors.fused.result.stopReason).toBe('max-consecutive-errors');
      expect(errors.fused.result.toolCalls.map((record: { isError: boolean }) => record.isError)).toEqual([false, true, true, true]);
    });

    it('ends at a reply that needs a decision, a failed model call, a middleware that ends the run', async () => {
      const approval = await bothPaths(
        () => ({
          model: scriptedModel([
            { toolCalls: [echoCall(1)] },
            { toolCalls: [echoCall(2)] },
            { toolCalls: [{ id: 'y', name: 'careful', arguments: {} }] },
            { toolCalls: [echoCall(3)] },
            { toolCalls: [echoCall(4), { id: 'l', name: 'lone', arguments: {} }] },
            { text: 'done' },
          ]),
          tools: [echo, careful, lone],
        }),
        (run) => {
          run.events$.subscribe((event) => {
            if (event.type === 'approval.requested') queueMicrotask(() => run.approve(event.id));
          });
        },
      );
      expect(approval.fused.result.stopReason).toBe('completed');
      expect(approval.fused.states).toEqual([
        'idle',
        'thinking',
        'screening',
        'awaitingApproval',
        'acting',
        'thinking',
        'acting',
        'thinking',
        'done',
      ]);

      const failed = await bothPaths(() => ({
        model: scriptedModel([{ toolCalls: [echoCall(1)] }, { toolCalls: [echoCall(2)] }, { text: 'half', error: 'the model fell over' }]),
        tools: [echo],
      }));
      expect(failed.fused.result.stopReason).toBe('error');
      expect(failed.fused.result.error?.message).toBe('the model fell over');

      const ended = await bothPaths(() => ({
        ...fiveSteps(),
        middleware: [
          async (ctx, next) => {
            await next();
            if (ctx.arguments.text === 't3') ctx.endRun();
          },
        ],
      }));
      expect(ended.fused.result.stopReason).toBe('ended-by-middleware');
      expect(ended.fused.result.toolCalls).toHaveLength(3);
    });

    it("a tool source's list changes mid-loop, from a tool and from outside while the model answers", async () => {
      const paths = () => {
        let tools: AnyTool[] = [];
        const listeners = new Set<() => void | Promise<void>>();
        const set = (next: AnyTool[]) => {
          tools = next;
          return Promise.all([...listeners].map((listener) => listener()));
        };
        const extra = defineTool({ name: 'extra', description: 'Extra.', parameters: z.object({}), execute: () => 'extra done' });
        const more = defineTool({ name: 'more', description: 'More.', parameters: z.object({}), execute: () => 'more done' });
        const adder = defineTool({
          name: 'adder',
          description: 'Adds extra.',
          parameters: z.object({}),
          execute: async (): Promise<string> => {
            await set([adder, extra]);
            return 'added';
          },
        });
        tools = [adder];
        const source: ToolSource = {
          name: 'mem',
          loadTools: async () => tools,
          onToolsChanged: (listener) => {
            listeners.add(listener);
            return () => void listeners.delete(listener);
          },
          close: async () => undefined,
        };
        return {
          model: scriptedModel([
            { toolCalls: [echoCall(1)] },
            { toolCalls: [{ id: 'a', name: 'adder', arguments: {} }] },
            { toolCalls: [{ id: 'x', name: 'extra', arguments: {} }], latencyMs: 5 },
            { toolCalls: [{ id: 'm', name: 'more', arguments: {} }] },
            { text: 'done' },
          ]),
          tools: [echo],
          toolSources: [source],
          // From outside, while the third model call is in flight.
          later: () => set([adder, extra, more]),
        };
      };
      const { fused } = await bothPaths(() => {
        const { later, ...options } = paths();
        const model = options.model;
        const stream = model.stream.bind(model);
        let calls = 0;
        model.stream = (request) => {
          calls += 1;
          if (calls === 3) setTimeout(() => void later(), 1);
          return stream(request);
        };
        return options;
      });
      const changes = fused.events.filter((event) => event.type === 'tools.changed');
      expect(changes.map((event) => event.type === 'tools.changed' && [event.step, event.callId, event.added])).toEqual([
        [2, 'source:mem', ['extra']],
        [3, 'source:mem', ['more']],
      ]);
      expect(fused.result.toolCalls.map((record: { content: string }) => record.content)).toEqual(['t1', 'added', 'extra done', 'more done']);
    });
  });
});
