import { type ReliableToolEvent, ReliableToolError, reliableTool } from '@agentchart/actors';
import { ConfigurationError, ToolDefinitionError, defineTool, msg } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callWith, priceTool, verdict } from './fixtures.js';

describe('reliableTool context and validation criteria', () => {
  it('appends a per-run validationPromptAddition to the validator prompt when dynamic validation is on', async () => {
    const { tool } = priceTool();
    const validatorModel = scriptedModel([verdict(true, 'ok'), verdict(true, 'ok')]);
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel: scriptedModel(() => callWith('ACME')),
      validatorModel,
      validationInstructions: '- The price must be positive.',
      dynamicValidation: true,
    });
    const started: ReliableToolEvent[] = [];
    prices.events$.subscribe((event) => event.type === 'reliable.run.started' && started.push(event));

    await prices.run({ task: 'Price of ACME', validationPromptAddition: '- The price must be in USD.' });
    await prices.run({ task: 'Price of ACME' });

    const [withAddition, without] = validatorModel.requests.map((request) => request.messages[0]?.content);
    expect(withAddition).toContain('Criteria:\n- The result accomplishes the task.\n- The price must be positive.');
    expect(withAddition).toContain('Additional criteria for this task:\n- The price must be in USD.');
    expect(without).toContain('- The price must be positive.');
    expect(without).not.toContain('Additional criteria');
    expect(started.map(({ runId: _runId, ...event }) => event)).toEqual([
      {
        type: 'reliable.run.started',
        tool: 'reliable_price',
        task: 'Price of ACME',
        maxToolInvocations: 3,
        wrappedTool: 'lookup_price',
        validationPromptAddition: '- The price must be in USD.',
      },
      { type: 'reliable.run.started', tool: 'reliable_price', task: 'Price of ACME', maxToolInvocations: 3, wrappedTool: 'lookup_price' },
    ]);
    expect(prices.jsonSchema).toEqual({
      type: 'object',
      properties: {
        task: { type: 'string', minLength: 1, description: expect.any(String) },
        validationPromptAddition: { type: 'string', description: expect.any(String) },
      },
      required: ['task'],
    });
  });

  it('refuses a validationPromptAddition without dynamic validation, before calling any model', async () => {
    const { tool } = priceTool();
    const runnerModel = scriptedModel([]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel: scriptedModel([]) });

    const error = await prices.run({ task: 'x', validationPromptAddition: 'must be in EUR' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ReliableToolError);
    expect(error).toMatchObject({ code: 'RELIABLE_TOOL_REQUEST_INVALID', attempts: [] });
    expect((error as Error).message).toContain('Pass dynamicValidation: true to reliableTool(...)');
    expect(runnerModel.requests).toHaveLength(0);
    expect(prices.jsonSchema.properties).toEqual({ task: expect.any(Object) });
  });

  it('shows both models the messages and each ground-truth item as its own message', async () => {
    const { tool } = priceTool();
    const runnerModel = scriptedModel([callWith('ACME')]);
    const validatorModel = scriptedModel([verdict(true, 'ok')]);
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel,
      validatorModel,
      messages: [msg.user('I am interested in ACME Corp.'), msg.assistant('Noted.')],
      groundTruth: ['ACME trades under the symbol ACME.'],
    });

    await prices.run({
      task: 'Price of the company we discussed',
      messages: [msg.user('Quotes in USD please.')],
      groundTruth: ['Prices are quoted in USD.'],
    });

    const context = [
      { role: 'user', content: 'I am interested in ACME Corp.' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'Quotes in USD please.' },
      { role: 'user', content: '[[Provided Ground Truth 1]]: ACME trades under the symbol ACME.' },
      { role: 'user', content: '[[Provided Ground Truth 2]]: Prices are quoted in USD.' },
    ];
    expect(runnerModel.requests[0]?.messages.slice(1)).toEqual([...context, { role: 'user', content: 'Price of the company we discussed' }]);
    expect(validatorModel.requests[0]?.messages.slice(1, -1)).toEqual(context);
    expect(validatorModel.requests[0]?.messages[0]?.role).toBe('system');
  });

  it('refuses unusable options with errors that say what to fix', () => {
    const { tool } = priceTool();
    const models = { runnerModel: scriptedModel([]), validatorModel: scriptedModel([]) };
    expect(() => reliableTool({ name: 'r', tool, ...models, maxToolInvocations: 0 })).toThrow(ConfigurationError);
    expect(() => reliableTool({ name: 'bad name', tool, ...models })).toThrow(ToolDefinitionError);
    expect(() => reliableTool({ name: 'r', tool, ...models, groundTruth: [1 as unknown as string] })).toThrow(/groundTruth/);
    const withHypothesis = defineTool({
      name: 'guess',
      description: 'Guesses.',
      parameters: z.object({ hypothesis: z.string() }),
      execute: () => 'x',
    });
    expect(() => reliableTool({ name: 'r', tool: withHypothesis, ...models })).toThrow(/already has a "hypothesis" parameter/);
  });
});

describe('reliableTool runs', () => {
  it('reports each attempt, the runner calls and the validator verdicts on events$', async () => {
    const { tool } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel: scriptedModel([callWith('BAD'), callWith('HALF'), callWith('ACME')]),
      validatorModel: scriptedModel([verdict(false, 'No price.'), verdict(true, 'ok')]),
    });
    const events: ReliableToolEvent[] = [];
    prices.events$.subscribe((event) => events.push(event));

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(events.every((event) => event.runId === details.runId && event.tool === 'reliable_price')).toBe(true);
    expect(
      events
        .filter((event) => !event.type.startsWith('reliable.model.'))
        .map((event) => {
          switch (event.type) {
            case 'reliable.runner.call':
              return `${event.attempt} call ${JSON.stringify(event.args)}`;
            case 'reliable.tool.result':
              return `${event.attempt} ${event.isError ? 'error' : 'result'} ${event.text}`;
            case 'reliable.validator.verdict':
              return `${event.attempt} verdict ${event.valid}: ${event.justification}`;
            case 'reliable.attempt.started':
              return `${event.attempt} started`;
            case 'reliable.attempt.finished':
              return `${event.attempt} finished ${event.record.outcome}`;
            default:
              return event.type;
          }
        }),
    ).toEqual([
      'reliable.run.started',
      '1 started',
      '1 call {"symbol":"BAD"}',
      '1 error unknown symbol BAD',
      '1 finished execution-error',
      '2 started',
      '2 call {"symbol":"HALF"}',
      '2 result HALF: price unavailable',
      '2 verdict false: No price.',
      '2 finished invalid-result',
      '3 started',
      '3 call {"symbol":"ACME"}',
      '3 result ACME: 42 USD',
      '3 verdict true: ok',
      '3 finished valid',
      'reliable.run.finished',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'reliable.run.finished', ok: true, attempts: 3 });
  });

  it('keeps two concurrent runs of one instance independent', async () => {
    const { tool, invocations } = priceTool();
    const taskOf = (messages: readonly { role: string; content: string }[]) =>
      messages.find((m) => m.role === 'user' && !m.content.startsWith('[['))?.content ?? '';
    // Run A needs two attempts; run B succeeds at once. A's first runner turn
    // waits until B's result is being validated, so the runs overlap for sure.
    let bValidating!: () => void;
    const bReachedValidation = new Promise<void>((resolve) => (bValidating = resolve));
    const runnerModel = scriptedModel(async (request) => {
      if (taskOf(request.messages) === 'Price of GLOBEX') return callWith('GLOBEX');
      if (request.messages.some((m) => m.role === 'tool')) return callWith('ACME');
      await bReachedValidation;
      return callWith('BAD');
    });
    const validatorModel = scriptedModel((request) => {
      const task = taskOf(request.messages.slice(1));
      if (task.includes('GLOBEX')) bValidating();
      return verdict(true, 'ok');
    });
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });
    const runIds = new Set<string>();
    prices.events$.subscribe((event) => runIds.add(event.runId));

    const [a, b] = await Promise.all([prices.runWithDetails({ task: 'Price of ACME' }), prices.runWithDetails({ task: 'Price of GLOBEX' })]);

    expect(a).toMatchObject({ ok: true, value: { symbol: 'ACME', price: 42 } });
    expect(a.attempts.map((attempt) => attempt.outcome)).toEqual(['execution-error', 'valid']);
    expect(b).toMatchObject({ ok: true, value: { symbol: 'GLOBEX', price: 42 } });
    expect(b.attempts.map((attempt) => attempt.outcome)).toEqual(['valid']);
    expect(a.runId).not.toBe(b.runId);
    expect(runIds).toEqual(new Set([a.runId, b.runId]));
    expect(invocations.map((i) => i.symbol)).toEqual(['GLOBEX', 'BAD', 'ACME']);
    // Neither run's runner saw anything of the other run.
    for (const request of runnerModel.requests) {
      const text = JSON.stringify(request.messages);
      expect(text.includes('GLOBEX') && (text.includes('ACME') || text.includes('BAD'))).toBe(false);
    }
  });

  it('ends with RELIABLE_TOOL_ABORTED when the signal aborts, stopping the attempt in progress', async () => {
    const { tool, invocations } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel: scriptedModel([{ ...callWith('ACME'), latencyMs: 1_000 }]),
      validatorModel: scriptedModel([]),
    });
    const controller = new AbortController();

    const pending = prices.run({ task: 'Price of ACME', signal: controller.signal });
    controller.abort();

    await expect(pending).rejects.toMatchObject({
      code: 'RELIABLE_TOOL_ABORTED',
      attempts: [{ attempt: 1, outcome: 'interrupted', runnerText: '', failureReason: 'the run was aborted', error: { code: 'ABORTED' } }],
    });
    expect(invocations).toEqual([]);
  });

  it('ends with RELIABLE_TOOL_MODEL_FAILED when a model fails, keeping the attempts so far', async () => {
    const { tool } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel: scriptedModel([callWith('BAD'), { error: 'connection refused' }]),
      validatorModel: scriptedModel([]),
    });

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(details).toMatchObject({ ok: false, failureReason: 'a model failed: connection refused' });
    expect(details.attempts.map((a) => a.outcome)).toEqual(['execution-error', 'interrupted']);
    if (!details.ok) expect(details.error.code).toBe('RELIABLE_TOOL_MODEL_FAILED');
  });
});
