import { createAgent } from '@agentchart/actors';
import { type ChatModel, type ModelEvent, type RunEvent, defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { Observable, firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const explode = defineTool({
  name: 'explode',
  description: 'Always fails.',
  parameters: z.object({}),
  execute: () => {
    throw new Error('the fuse was wet');
  },
});

/** A tool that resolves after `ms` (or rejects when its signal aborts). */
const sleeper = (name: string, record: string[] = []) =>
  defineTool({
    name,
    description: 'Waits.',
    parameters: z.object({ ms: z.number() }),
    execute: ({ ms }, ctx) =>
      new Promise<string>((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          record.push(`${name} aborted`);
          reject(new Error('aborted'));
        };
        const timer = setTimeout(() => {
          ctx.signal.removeEventListener('abort', onAbort);
          record.push(`${name} done`);
          resolve(`${name} slept ${ms}`);
        }, ms);
        ctx.signal.addEventListener('abort', onAbort);
      }),
  });

const ABORTED = 'The run was aborted before this call returned a result.';

const lastToolMessage = (messages: readonly { role: string }[]) => messages.filter((m) => m.role === 'tool').at(-1);

describe('agent tool loop', () => {
  it('calls a tool, feeds its result back and ends with the answer', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'The sum is 5.' }]);
    const agent = createAgent({ name: 'calc', model, tools: [add], instructions: 'Use tools.' });
    const result = await agent.run('What is 2 + 3?').result;
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('The sum is 5.');
    expect(result.steps).toBe(2);
    expect(result.toolCalls).toEqual([
      { step: 1, call: { id: 'call_0_0', name: 'add', arguments: { a: 2, b: 3 } }, content: '5', isError: false, value: 5 },
    ]);
    expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['add']);
    expect(model.requests[1]?.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'What is 2 + 3?' },
      { role: 'assistant', content: '', name: 'calc', toolCalls: [{ id: 'call_0_0', name: 'add', arguments: { a: 2, b: 3 } }] },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'add', content: '5' },
    ]);
  });

  it('reports every argument issue to the model in one tool result, and goes on', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'add', arguments: { a: 'two', c: 1 } }] },
      { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      { text: '5' },
    ]);
    const result = await createAgent({ name: 'calc', model, tools: [add] }).run('2+3').result;
    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0]?.content).toBe(
      'Invalid arguments for tool "add":\n' +
        '- a: Invalid input: expected number, received string\n' +
        '- b: Invalid input: expected number, received undefined\n' +
        'Fix these and call "add" again.',
    );
    expect(lastToolMessage(model.requests[1]?.messages ?? [])).toMatchObject({ isError: true, toolName: 'add' });
    expect(result.toolCalls[1]).toMatchObject({ content: '5', isError: false });
    expect(result.stopReason).toBe('completed');
  });

  it('tells the model when its argument text is not valid JSON', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'add', malformedArguments: '{"a": 2,' }] }, { text: 'sorry' }]);
    const result = await createAgent({ name: 'calc', model, tools: [add] }).run('2+3').result;
    expect(result.toolCalls[0]?.content).toBe(
      'Invalid arguments for tool "add":\n- (arguments): The arguments are not valid JSON: {"a": 2,\nFix these and call "add" again.',
    );
  });

  it('answers a call of an unknown tool with the list of tools, and goes on', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'multiply', arguments: { a: 2, b: 3 } }] }, { text: 'I cannot multiply.' }]);
    const result = await createAgent({ name: 'calc', model, tools: [add, explode] }).run('2*3').result;
    expect(result.toolCalls[0]).toMatchObject({ content: 'Unknown tool "multiply". Available tools: add, explode.', isError: true });
    expect(result.text).toBe('I cannot multiply.');
  });

  it('turns a thrown tool error into a tool result, with the full error on events$', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'explode' }] }, { text: 'It failed.' }]);
    const run = createAgent({ name: 'calc', model, tools: [explode] }).run('boom');
    const events = firstValueFrom(run.events$.pipe(toArray()));
    const result = await run.result;
    expect(result.toolCalls[0]).toMatchObject({ content: 'Tool "explode" failed: the fuse was wet', isError: true });
    const toolResult = (await events).find((event) => event.type === 'tool.result');
    expect(toolResult).toMatchObject({ error: { name: 'Error', message: 'the fuse was wet' } });
    expect(result.stopReason).toBe('completed');
  });

  it('stops at maxSteps with its own stop reason', async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }));
    const result = await createAgent({ name: 'calc', model, tools: [add], maxSteps: 3 }).run('loop').result;
    expect(result.stopReason).toBe('max-steps');
    expect(result.steps).toBe(3);
    expect(model.requests).toHaveLength(3);
    expect(result.toolCalls).toHaveLength(3);
  });

  it('returns the results of a parallel batch in call order, whatever order they finish in', async () => {
    const finished: string[] = [];
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'slow', arguments: { ms: 40 } },
          { name: 'fast', arguments: { ms: 1 } },
          { name: 'medium', arguments: { ms: 15 } },
        ],
      },
      { text: 'all done' },
    ]);
    const tools = [sleeper('slow', finished), sleeper('fast', finished), sleeper('medium', finished)];
    const run = createAgent({ name: 'waiter', model, tools }).run('go');
    const events = firstValueFrom(run.events$.pipe(toArray()));
    const result = await run.result;
    expect(finished).toEqual(['fast done', 'medium done', 'slow done']);
    expect(result.toolCalls.map((record) => record.content)).toEqual(['slow slept 40', 'fast slept 1', 'medium slept 15']);
    expect(lastToolMessage(model.requests[1]?.messages ?? [])).toMatchObject({ toolName: 'medium' });
    expect(model.requests[1]?.messages.slice(-3).map((m) => (m.role === 'tool' ? m.toolName : m.role))).toEqual(['slow', 'fast', 'medium']);
    // tool.result events arrive as each call settles.
    const settled = (await events).filter((event) => event.type === 'tool.result').map((event) => event.toolName);
    expect(settled).toEqual(['fast', 'medium', 'slow']);
  });

  it('reports events in order, from run.started to run.finished', async () => {
    const model = scriptedModel([
      { text: 'Adding.', toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], usage: { inputTokens: 10, outputTokens: 5 } },
      { text: 'It is 3.', chunks: 3, usage: { inputTokens: 20, outputTokens: 3 } },
    ]);
    const run = createAgent({ name: 'calc', model, tools: [add] }).run('1+2');
    const events = await firstValueFrom(run.events$.pipe(toArray()));
    const summary = events.map((event: RunEvent) => {
      switch (event.type) {
        case 'text.delta':
          return `delta:${event.text}`;
        case 'message':
          return `message:${event.message.role}`;
        case 'tool.call':
          return `call:${event.call.name}`;
        case 'tool.result':
          return `result:${event.content}`;
        case 'run.finished':
          return `finished:${event.reason}`;
        default:
          return event.type;
      }
    });
    expect(summary).toEqual([
      'run.started',
      'model.request',
      'delta:Adding.',
      'usage',
      'model.response',
      'message:assistant',
      'call:add',
      'result:3',
      'message:tool',
      'model.request',
      'delta:It ',
      'delta:is ',
      'delta:3.',
      'usage',
      'model.response',
      'message:assistant',
      'finished:completed',
    ]);
    expect((await run.result).usage).toEqual({ inputTokens: 30, outputTokens: 8 });
  });

  it('puts text deltas on events$ as they stream in, before the reply is complete', async () => {
    let emitSecond: (() => void) | undefined;
    const model: ChatModel = {
      provider: 'test',
      modelName: 'manual',
      stream: () =>
        new Observable<ModelEvent>((subscriber) => {
          subscriber.next({ type: 'text-delta', text: 'Hel' });
          emitSecond = () => {
            subscriber.next({ type: 'text-delta', text: 'lo' });
            subscriber.next({ type: 'finish', reason: 'stop' });
            subscriber.complete();
          };
        }),
    };
    const run = createAgent({ name: 'talker', model }).run('hi');
    const firstDelta = await firstValueFrom(
      run.events$.pipe((source) => new Observable<RunEvent>((sub) => source.subscribe((e) => e.type === 'text.delta' && sub.next(e)))),
    );
    expect(firstDelta).toMatchObject({ type: 'text.delta', text: 'Hel' });
    emitSecond?.();
    expect((await run.result).text).toBe('Hello');
  });

  it('aborting during a model call cancels it and ends the run as aborted, starting nothing more', async () => {
    let unsubscribed = false;
    let requests = 0;
    const model: ChatModel = {
      provider: 'test',
      modelName: 'hanging',
      stream: () => {
        requests += 1;
        return new Observable<ModelEvent>(() => () => {
          unsubscribed = true;
        });
      },
    };
    const controller = new AbortController();
    const run = createAgent({ name: 'waiter', model, tools: [add] }).run('hi', { signal: controller.signal });
    const events = firstValueFrom(run.events$.pipe(toArray()));
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    expect(unsubscribed).toBe(true);
    expect(requests).toBe(1);
    expect((await events).at(-1)).toMatchObject({ type: 'run.finished', reason: 'aborted' });
  });

  it('aborting during a tool call aborts the tool signal and makes no further model call', async () => {
    const record: string[] = [];
    const model = scriptedModel([{ toolCalls: [{ name: 'slow', arguments: { ms: 10_000 } }] }, { text: 'never' }]);
    const controller = new AbortController();
    const run = createAgent({ name: 'waiter', model, tools: [sleeper('slow', record)] }).run('go', { signal: controller.signal });
    run.events$.subscribe((event) => {
      if (event.type === 'tool.call') setTimeout(() => controller.abort(), 5);
    });
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    expect(record).toEqual(['slow aborted']);
    expect(model.requests).toHaveLength(1);
    expect(result.toolCalls).toEqual([
      { step: 1, call: { id: 'call_0_0', name: 'slow', arguments: { ms: 10_000 } }, content: ABORTED, isError: true },
    ]);
  });

  it('a tool that reads its signal only after an abort sees it aborted, with the same signal for every call', async () => {
    // A fused batch makes the run's abort controller when a call first reads `ctx.signal`: here, after the abort.
    let release: () => void = () => undefined;
    const seen: { aborted: boolean; reason: unknown }[] = [];
    const signals: AbortSignal[] = [];
    const late = defineTool({
      name: 'late',
      description: 'Reads its signal late.',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        seen.push({ aborted: ctx.signal.aborted, reason: ctx.signal.reason });
        signals.push(ctx.signal, ctx.signal);
        return 'late';
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'late', arguments: {} }] }, { text: 'never' }]);
    const controller = new AbortController();
    const run = createAgent({ name: 'waiter', model, tools: [late] }).run('go', { signal: controller.signal });
    run.events$.subscribe((event) => {
      if (event.type === 'tool.call') setTimeout(() => controller.abort(), 5);
    });
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toHaveLength(1);
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toMatchObject({ name: 'AbortedError', message: 'The run was aborted.' });
    expect(signals[0]).toBe(signals[1]);
  });

  it('an abort in the middle of a batch keeps the results that came back and answers the others as aborted', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'add', arguments: { a: 1, b: 2 } },
          { name: 'slow', arguments: { ms: 10_000 } },
        ],
      },
      { text: 'never' },
    ]);
    const run = createAgent({ name: 'waiter', model, tools: [add, sleeper('slow')] }).run('go');
    const events = firstValueFrom(run.events$.pipe(toArray()));
    run.events$.subscribe((event) => {
      if (event.type === 'tool.result' && event.toolName === 'add') run.abort();
    });
    const result = await run.result;

    expect(result.stopReason).toBe('aborted');
    expect(result.messages.slice(-3)).toEqual([
      {
        role: 'assistant',
        name: 'waiter',
        content: '',
        toolCalls: [
          { id: 'call_0_0', name: 'add', arguments: { a: 1, b: 2 } },
          { id: 'call_0_1', name: 'slow', arguments: { ms: 10_000 } },
        ],
      },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'add', content: '3' },
      { role: 'tool', toolCallId: 'call_0_1', toolName: 'slow', content: ABORTED, isError: true },
    ]);
    expect(result.toolCalls.map(({ content, isError }) => ({ content, isError }))).toEqual([
      { content: '3', isError: false },
      { content: ABORTED, isError: true },
    ]);
    const toolResults = (await events).filter((event) => event.type === 'tool.result');
    expect(toolResults.map((event) => event.type === 'tool.result' && [event.toolName, event.content])).toEqual([
      ['add', '3'],
      ['slow', ABORTED],
    ]);
  });

  it('run.abort() right after run() ends the run as aborted, with no model call and no warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const model = scriptedModel([{ text: 'never' }]);
      const run = createAgent({ name: 'idle', model }).run('hi');
      run.abort();
      const result = await run.result;
      expect(result.stopReason).toBe('aborted');
      expect(model.requests).toHaveLength(0);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('a signal aborted before the run starts means no model call at all', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const result = await createAgent({ name: 'idle', model }).run('hi', { signal: AbortSignal.abort() }).result;
    expect(result.stopReason).toBe('aborted');
    expect(model.requests).toHaveLength(0);
  });

  it('refuses input messages that are not valid messages, naming the message and the problem', () => {
    const agent = createAgent({ name: 'calc', model: scriptedModel([{ text: 'never' }]), tools: [add] });
    const input = [
      { role: 'user', content: 'Hi' },
      { role: 'robot', content: 'beep' },
    ] as unknown as Parameters<typeof agent.run>[0];
    expect(() => agent.run(input)).toThrowError(
      "agent.run(input): message 1 is not a valid message (role: Invalid discriminator value. Expected 'system' | 'user' | 'assistant' | 'tool'). " +
        "Build messages with msg.user('...'), msg.assistant('...'), msg.system('...') or msg.tool(...).",
    );
  });

  it('ends with stop reason error and the transcript so far when the model fails', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { error: 'server went away' }]);
    const result = await createAgent({ name: 'calc', model, tools: [add] }).run('1+2').result;
    expect(result.stopReason).toBe('error');
    expect(result.error).toMatchObject({ message: 'server went away' });
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});

describe('createAgent', () => {
  it('rejects instructions that are not a string, saying what to pass', () => {
    const model = scriptedModel([{ text: 'hi' }]);
    expect(() => createAgent({ name: 'a', model, instructions: ['Be brief.'] as unknown as string })).toThrowError(
      'createAgent({ name: "a" }): instructions must be a string: the system prompt; got ["Be brief."].',
    );
  });
});
