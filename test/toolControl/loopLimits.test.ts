import { ConfigurationError, defineTool, rules } from '@agentchart/core';
import { DEFAULT_MAX_CONSECUTIVE_ERRORS, createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsOf, recordEvents, simpleTool } from './helpers.js';

const ping = simpleTool('ping', 'pong');
const broken = defineTool({
  name: 'broken',
  description: 'Always fails.',
  parameters: z.object({}),
  execute: () => {
    throw new Error('database password is hunter2');
  },
});

const sent = (model: ReturnType<typeof scriptedModel>) =>
  model.requests.map((request) => ({ tools: request.tools.map((tool) => tool.name), toolChoice: request.toolChoice }));

describe('loop limits', () => {
  it('maxSteps caps model round trips', async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'ping' }] }));
    const result = await createAgent({ name: 'loop', model, tools: [ping], maxSteps: 2 }).run('go').result;
    expect(result.stopReason).toBe('max-steps');
    expect(model.requests).toHaveLength(2);
    expect(result.toolCalls).toHaveLength(2);
  });

  it('no fallback text: a run stopped by a limit or a terminal tool after a reply with only tool calls has text "" and its stop reason', async () => {
    const onlyCalls = () => scriptedModel(() => ({ toolCalls: [{ name: 'ping' }] }));
    const steps = await createAgent({ name: 'loop', model: onlyCalls(), tools: [ping], maxSteps: 2 }).run('go').result;
    expect(steps).toMatchObject({ stopReason: 'max-steps', text: '', steps: 2 }); // no final tool-less call after the last step
    const calls = await createAgent({ name: 'loop', model: onlyCalls(), tools: [ping], maxToolCalls: 1 }).run('go').result;
    expect(calls).toMatchObject({ stopReason: 'max-tool-calls', text: '' });
    const terminal = await createAgent({ name: 'loop', model: onlyCalls(), tools: [ping], toolRules: [rules.terminal('ping')] }).run('go').result;
    expect(terminal).toMatchObject({ stopReason: 'terminal-tool', text: '', steps: 1 });
  });

  it('maxToolCalls is a hard cap: calls beyond it are answered unexecuted, then one last call with tool choice none', async () => {
    let runs = 0;
    const counted = defineTool({ name: 'ping', description: 'Pings.', parameters: z.object({}), execute: () => `pong ${++runs}` });
    const model = scriptedModel([
      { toolCalls: [{ name: 'ping' }] },
      { toolCalls: [{ name: 'ping' }, { name: 'ping' }, { name: 'ping' }] },
      { text: 'Three pongs so far.' },
    ]);
    const run = createAgent({ name: 'loop', model, tools: [counted], maxToolCalls: 3 }).run('go');
    const events = recordEvents(run);
    const result = await run.result;

    expect(runs).toBe(3);
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      'pong 1',
      'pong 2',
      'pong 3',
      'Not executed: this run may execute at most 3 tool calls (maxToolCalls).',
    ]);
    expect(sent(model)).toEqual([
      { tools: ['ping'], toolChoice: 'auto' },
      { tools: ['ping'], toolChoice: 'auto' },
      { tools: [], toolChoice: 'none' },
    ]);
    expect(result.stopReason).toBe('max-tool-calls');
    expect(result.text).toBe('Three pongs so far.');
    expect(eventsOf(events, 'run.finished')[0]?.reason).toBe('max-tool-calls');
  });

  it('the last, tool-less call ends the run even if the model calls tools anyway; those calls are answered, not run', async () => {
    let runs = 0;
    const counted = defineTool({ name: 'ping', description: 'Pings.', parameters: z.object({}), execute: () => `pong ${++runs}` });
    const model = scriptedModel(() => ({ text: 'again', toolCalls: [{ name: 'ping' }] }));
    const result = await createAgent({ name: 'loop', model, tools: [counted], maxToolCalls: 1 }).run('go').result;
    expect(runs).toBe(1);
    expect(model.requests).toHaveLength(2);
    expect(result.stopReason).toBe('max-tool-calls');
    expect(result.toolCalls.at(-1)).toMatchObject({
      content: 'Not executed: the run reached its limit of 1 tool calls (maxToolCalls), and tools are disabled for the rest of the run.',
      isError: true,
    });
    expect(result.messages.at(-1)?.role).toBe('tool');
  });

  it(`maxConsecutiveErrors defaults to ${DEFAULT_MAX_CONSECUTIVE_ERRORS}: then one last model call with tool choice none`, async () => {
    const model = scriptedModel((request) =>
      request.toolChoice === 'none' ? { text: 'I could not reach the database.' } : { toolCalls: [{ name: 'broken' }] },
    );
    const result = await createAgent({ name: 'loop', model, tools: [broken, ping] }).run('go').result;
    expect(DEFAULT_MAX_CONSECUTIVE_ERRORS).toBe(3);
    expect(sent(model).map((request) => request.toolChoice)).toEqual(['auto', 'auto', 'auto', 'none']);
    expect(model.requests[3]?.tools).toEqual([]);
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(result.text).toBe('I could not reach the database.');
  });

  it('an iteration without errors resets the count of consecutive errors', async () => {
    const plan = ['broken', 'ping', 'broken', 'broken', 'ping', 'broken'];
    const model = scriptedModel((_request, index) => {
      const name = plan[index];
      return name === undefined ? { text: 'done' } : { toolCalls: [{ name }] };
    });
    const result = await createAgent({ name: 'loop', model, tools: [broken, ping], maxConsecutiveErrors: 3 }).run('go').result;
    expect(result.stopReason).toBe('completed');
    expect(model.requests).toHaveLength(7);
  });

  it('an iteration counts as failing when any call of its batch fails (unknown tools and invalid arguments included)', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'ping' }, { name: 'nope' }] },
      { toolCalls: [{ name: 'ping', malformedArguments: '{' }] },
      { text: 'gave up' },
    ]);
    const result = await createAgent({ name: 'loop', model, tools: [ping], maxConsecutiveErrors: 2 }).run('go').result;
    expect(result.stopReason).toBe('max-consecutive-errors');
    expect(sent(model).map((request) => request.toolChoice)).toEqual(['auto', 'auto', 'none']);
  });

  it('detailedErrors: false shows the model only that the tool failed; events$ still get the full error', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'broken' }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'loop', model, tools: [broken], detailedErrors: false }).run('go');
    const events = recordEvents(run);
    const result = await run.result;
    expect(result.toolCalls[0]?.content).toBe('Tool "broken" failed.');
    expect(JSON.stringify(model.requests[1]?.messages)).not.toContain('hunter2');
    const error = eventsOf(events, 'tool.result')[0]?.error;
    expect(error).toMatchObject({ name: 'Error', message: 'database password is hunter2' });
    expect(error?.stack).toMatch(/^Error: database password is hunter2\n\s+at /);
  });

  it('detailedErrors: true (the default) shows the model the error message', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'broken' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'loop', model, tools: [broken] }).run('go').result;
    expect(result.toolCalls[0]?.content).toBe('Tool "broken" failed: database password is hunter2');
  });

  it('rejects limits that are not whole numbers of at least 1', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ name: 'a', model, maxToolCalls: 0 })).toThrow('maxToolCalls must be a whole number of at least 1; got 0.');
    expect(() => createAgent({ name: 'a', model, maxConsecutiveErrors: 1.5 })).toThrow(
      'maxConsecutiveErrors must be a whole number of at least 1; got 1.5.',
    );
    expect(() => createAgent({ name: 'a', model, maxSteps: -1 })).toThrow(ConfigurationError);
  });
});
