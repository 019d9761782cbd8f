import { AbortedError, type ChatRequest, ModelError, defineTool, msg } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { collectEvents } from './wire/collectEvents.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 2 + 3?')],
  tools: [add.spec],
  toolChoice: 'auto',
  ...overrides,
});

describe('scriptedModel', () => {
  it('plays a turn as reasoning, text in chunks, tool calls with default ids, usage and the finish reason', async () => {
    const model = scriptedModel([
      {
        reasoning: 'Add them.',
        text: 'Adding now',
        chunks: 4,
        toolCalls: [
          { name: 'add', arguments: { a: 2, b: 3 } },
          { name: 'add', id: 'mine', malformedArguments: '{"a":' },
        ],
        usage: { inputTokens: 9, outputTokens: 4 },
      },
    ]);
    const { events, error } = await collectEvents(model.stream(ask()));
    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Add them.' },
      { type: 'text-delta', text: 'Addi' },
      { type: 'text-delta', text: 'ng n' },
      { type: 'text-delta', text: 'ow' },
      { type: 'tool-call', call: { id: 'call_0_0', name: 'add', arguments: { a: 2, b: 3 } } },
      { type: 'tool-call', call: { id: 'mine', name: 'add', arguments: undefined, malformedArguments: '{"a":' } },
      { type: 'usage', usage: { inputTokens: 9, outputTokens: 4 } },
      { type: 'finish', reason: 'tool-calls' },
    ]);
  });

  it('streams exact pieces and honours a scripted finish reason', async () => {
    const model = scriptedModel([{ text: 'unused', chunks: ['The sum', ' is 5.'], finishReason: 'length' }]);
    const { events } = await collectEvents(model.stream(ask()));
    expect(events).toEqual([
      { type: 'text-delta', text: 'The sum' },
      { type: 'text-delta', text: ' is 5.' },
      { type: 'finish', reason: 'length' },
    ]);
  });

  it('records every request without its signal, as a copy the caller cannot change afterwards', async () => {
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }]);
    const messages = [msg.user('Hi')];
    await collectEvents(
      model.stream({ messages, tools: [add.spec], toolChoice: { type: 'tool', name: 'add' }, signal: new AbortController().signal }),
    );
    messages.push(msg.user('later'));
    await collectEvents(model.stream(ask({ toolChoice: 'none', tools: [] })));
    expect(model.requests).toEqual([
      { messages: [msg.user('Hi')], tools: [add.spec], toolChoice: { type: 'tool', name: 'add' } },
      { messages: [msg.user('What is 2 + 3?')], tools: [], toolChoice: 'none' },
    ]);
  });

  it('computes replies with a function of the request and its index', async () => {
    const model = scriptedModel((request, index) => ({ text: `${index}:${request.messages.length}` }));
    const first = await collectEvents(model.stream(ask()));
    const second = await collectEvents(model.stream(ask({ messages: [msg.user('a'), msg.user('b')] })));
    expect([first.events[0], second.events[0]]).toEqual([
      { type: 'text-delta', text: '0:1' },
      { type: 'text-delta', text: '1:2' },
    ]);
  });

  it('fails a turn after its output, and says how to fix an exhausted script', async () => {
    const model = scriptedModel([{ text: 'Hal', error: 'server went away' }]);
    const failed = await collectEvents(model.stream(ask()));
    expect(failed.events).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect(failed.error).toEqual(new Error('server went away'));
    const exhausted = await collectEvents(model.stream(ask()));
    expect(exhausted.error).toBeInstanceOf(ModelError);
    expect(exhausted.error).toMatchObject({
      code: 'MODEL_SCRIPT_EXHAUSTED',
      message: 'The scripted model received request 2 but its script has only 1 turn(s). Add turns, or pass a function (request, index) => turn.',
    });
  });

  it('ends with AbortedError when the signal aborts during its latency, like the real providers', async () => {
    const model = scriptedModel([{ text: 'late' }], { latencyMs: 10_000 });
    const controller = new AbortController();
    const collected = collectEvents(model.stream(ask({ signal: controller.signal })));
    controller.abort();
    const { events, error } = await collected;
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(AbortedError);
  });

  it('plays nothing for a signal that is already aborted', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const { events, error } = await collectEvents(model.stream(ask({ signal: AbortSignal.abort() })));
    expect(events).toEqual([]);
    expect(error).toBeInstanceOf(AbortedError);
    expect(model.requests).toEqual([]);
  });
});
