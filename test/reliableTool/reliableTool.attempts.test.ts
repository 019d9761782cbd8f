import { ReliableToolError, reliableTool } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationResultSchema } from '@agentchart/actors';
import { callWith, priceTool, verdict } from './fixtures.js';

const RUNNER_SYSTEM = expect.stringContaining('Every reply of yours must be exactly one call of "lookup_price"');

describe('reliableTool attempts', () => {
  it('returns the value when the first invocation passes validation', async () => {
    const { tool, invocations } = priceTool();
    const runnerModel = scriptedModel([callWith('ACME')]);
    const validatorModel = scriptedModel([verdict(true, 'A price in USD for ACME.')]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(details).toMatchObject({
      ok: true,
      value: { symbol: 'ACME', price: 42 },
      text: 'ACME: 42 USD',
      successfulArgs: { symbol: 'ACME' },
    });
    expect(details.attempts).toEqual([
      {
        attempt: 1,
        outcome: 'valid',
        runnerText: '',
        args: { symbol: 'ACME' },
        hypothesis: 'ACME is the symbol named in the task.',
        value: { symbol: 'ACME', price: 42 },
        text: 'ACME: 42 USD',
        validation: { valid: true, justification: 'A price in USD for ACME.' },
      },
    ]);
    expect(invocations).toEqual([{ symbol: 'ACME' }]);

    const runnerRequest = runnerModel.requests[0];
    expect(runnerRequest?.toolChoice).toBe('required');
    expect(runnerRequest?.tools).toEqual([
      {
        name: 'lookup_price',
        description: 'Looks up the latest price of a stock symbol.',
        parameters: {
          type: 'object',
          properties: {
            hypothesis: { type: 'string', description: expect.any(String) },
            symbol: { type: 'string', description: 'A ticker symbol, e.g. ACME' },
          },
          required: ['hypothesis', 'symbol'],
        },
      },
    ]);
    expect(runnerRequest?.messages).toEqual([
      { role: 'system', content: RUNNER_SYSTEM },
      { role: 'user', content: 'Price of ACME' },
    ]);

    const validatorRequest = validatorModel.requests[0];
    expect(validatorRequest?.tools).toEqual([]);
    const { $schema: _ignored, ...schema } = z.toJSONSchema(ValidationResultSchema);
    expect(validatorRequest?.responseFormat).toEqual({ type: 'json_schema', name: 'validation_result', schema });
    expect(validatorRequest?.messages.at(-1)).toEqual({
      role: 'user',
      content: 'Task: Price of ACME\n\nResult of lookup_price({"symbol":"ACME"}):\nACME: 42 USD',
    });
  });

  it('retries after an execution error, showing the runner the error', async () => {
    const { tool, invocations } = priceTool();
    const runnerModel = scriptedModel([callWith('BAD'), callWith('ACME')]);
    const validatorModel = scriptedModel([verdict(true, 'Fine.')]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });

    const value = await prices.run({ task: 'Price of ACME' });

    expect(value).toEqual({ symbol: 'ACME', price: 42 });
    expect(invocations).toEqual([{ symbol: 'BAD' }, { symbol: 'ACME' }]);
    expect(validatorModel.requests).toHaveLength(1);
    expect(runnerModel.requests[1]?.messages.slice(1)).toEqual([
      { role: 'user', content: 'Price of ACME' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call_0_0', name: 'lookup_price', arguments: { hypothesis: 'BAD is the symbol named in the task.', symbol: 'BAD' } }],
      },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'lookup_price', content: '"lookup_price" failed: unknown symbol BAD', isError: true },
      {
        role: 'user',
        content: 'Attempt 1 of 3 failed: "lookup_price" failed: unknown symbol BAD\nCall "lookup_price" again with arguments that address this.',
      },
    ]);
  });

  it('retries after a result fails validation, showing the runner the justification', async () => {
    const { tool } = priceTool();
    const runnerModel = scriptedModel([callWith('HALF'), callWith('ACME')]);
    const validatorModel = scriptedModel([verdict(false, 'No price is given.'), verdict(true, 'Has a price.')]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });

    const details = await prices.runWithDetails({ task: 'A price' });

    expect(details.ok).toBe(true);
    expect(details.attempts.map((a) => [a.outcome, a.text, a.validation?.valid])).toEqual([
      ['invalid-result', 'HALF: price unavailable', false],
      ['valid', 'ACME: 42 USD', true],
    ]);
    expect(details.attempts[0]?.value).toEqual({ symbol: 'HALF', price: null });
    expect(runnerModel.requests[1]?.messages.slice(-2)).toEqual([
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'lookup_price', content: 'HALF: price unavailable' },
      {
        role: 'user',
        content:
          'Attempt 1 of 3 failed: the validator rejected the result: No price is given.\nCall "lookup_price" again with arguments that address this.',
      },
    ]);
  });

  it('counts each runner reply without a valid call as an attempt and never runs the tool', async () => {
    const { tool, invocations } = priceTool();
    const runnerModel = scriptedModel([
      { text: 'I think the price is 42.' },
      { toolCalls: [{ name: 'lookup_price', arguments: { hypothesis: 'h', ticker: 'ACME' } }] },
      { toolCalls: [{ name: 'search', arguments: {} }] },
    ]);
    const validatorModel = scriptedModel([]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });

    const error = await prices.run({ task: 'Price of ACME' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ReliableToolError);
    const attempts = (error as ReliableToolError).attempts;
    expect((error as ReliableToolError).code).toBe('RELIABLE_TOOL_EXHAUSTED');
    expect(attempts.map((a) => a.outcome)).toEqual(['no-valid-call', 'no-valid-call', 'no-valid-call']);
    expect(attempts.map((a) => a.failureReason)).toEqual([
      'The runner replied without calling "lookup_price"; a call of "lookup_price" is required.',
      'Invalid arguments for tool "lookup_price":\n- symbol: Invalid input: expected string, received undefined\nFix these and call "lookup_price" again.',
      'The runner called "search", which is not available; only "lookup_price" can be called.',
    ]);
    expect(attempts[0]?.runnerText).toBe('I think the price is 42.');
    expect(invocations).toEqual([]);
    expect(runnerModel.requests).toHaveLength(3);
    expect(validatorModel.requests).toHaveLength(0);
    expect(runnerModel.requests[1]?.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'I think the price is 42.' },
      {
        role: 'user',
        content:
          'Attempt 1 of 3 failed: The runner replied without calling "lookup_price"; a call of "lookup_price" is required.\nCall "lookup_price" again with arguments that address this.',
      },
    ]);
  });

  it('treats a validator reply that is not structured output as a failed validation', async () => {
    const { tool } = priceTool();
    const runnerModel = scriptedModel([callWith('ACME'), callWith('ACME')]);
    const validatorModel = scriptedModel([{ text: 'Looks great to me!' }, { text: '```json\n{"valid": true, "justification": "Ok."}\n```' }]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(details.ok).toBe(true);
    expect(details.attempts[0]).toMatchObject({
      outcome: 'invalid-result',
      validation: {
        valid: false,
        justification:
          'The validator\'s reply is not valid structured output ({ "valid": boolean, "justification": string }): it is not JSON: "Looks great to me!"',
      },
    });
    expect(details.attempts[1]?.validation).toEqual({ valid: true, justification: 'Ok.' });
  });

  it('rejects with ReliableToolError carrying every attempt when none passes', async () => {
    const { tool, invocations } = priceTool();
    const runnerModel = scriptedModel([callWith('BAD'), { text: 'no idea' }, callWith('HALF'), callWith('ACME')]);
    const validatorModel = scriptedModel([verdict(false, 'No price.')]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel, maxToolInvocations: 3 });

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(details.ok).toBe(false);
    if (details.ok) return;
    expect(details.failureReason).toBe(
      'no result passed validation in 3 attempt(s); the last failed because the validator rejected the result: No price.',
    );
    expect(details.error.code).toBe('RELIABLE_TOOL_EXHAUSTED');
    expect(details.error.message).toBe(
      'reliableTool "reliable_price": no result passed validation in 3 attempt(s); the last failed because the validator rejected the result: No price. ' +
        'Raise maxToolInvocations, state the validation criteria more clearly, or guide the runner with runnerInstructions, messages or groundTruth.',
    );
    expect(details.error.attempts).toBe(details.attempts);
    expect(details.attempts).toEqual([
      {
        attempt: 1,
        outcome: 'execution-error',
        runnerText: '',
        args: { symbol: 'BAD' },
        hypothesis: 'BAD is the symbol named in the task.',
        error: { name: 'Error', message: 'unknown symbol BAD' },
        failureReason: '"lookup_price" failed: unknown symbol BAD',
      },
      {
        attempt: 2,
        outcome: 'no-valid-call',
        runnerText: 'no idea',
        failureReason: 'The runner replied without calling "lookup_price"; a call of "lookup_price" is required.',
      },
      {
        attempt: 3,
        outcome: 'invalid-result',
        runnerText: '',
        args: { symbol: 'HALF' },
        hypothesis: 'HALF is the symbol named in the task.',
        value: { symbol: 'HALF', price: null },
        text: 'HALF: price unavailable',
        validation: { valid: false, justification: 'No price.' },
        failureReason: 'the validator rejected the result: No price.',
      },
    ]);
    expect(invocations).toEqual([{ symbol: 'BAD' }, { symbol: 'HALF' }]);
    expect(runnerModel.requests).toHaveLength(3);
    expect(runnerModel.requests[2]?.messages.at(-1)?.content).toContain('Attempt 2 of 3 failed');
    await expect(prices.run({ task: 'Price of ACME' })).rejects.toMatchObject({ code: 'RELIABLE_TOOL_MODEL_FAILED' });
  });

  it('honours maxToolInvocations exactly, counting every failed attempt', async () => {
    const { tool, invocations } = priceTool();
    const runnerModel = scriptedModel(() => callWith('BAD'));
    const validatorModel = scriptedModel([]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel, maxToolInvocations: 2 });

    await expect(prices.run({ task: 'x' })).rejects.toMatchObject({ code: 'RELIABLE_TOOL_EXHAUSTED', attempts: { length: 2 } });
    expect(invocations).toHaveLength(2);
    expect(runnerModel.requests).toHaveLength(2);
    expect(runnerModel.requests[1]?.messages.at(-1)?.content).toBe(
      'Attempt 1 of 2 failed: "lookup_price" failed: unknown symbol BAD\nCall "lookup_price" again with arguments that address this.',
    );
  });

  it("runs only the first call of a reply, runs a call without a hypothesis, and sums both models' usage", async () => {
    const { tool, invocations } = priceTool();
    const runnerModel = scriptedModel([
      {
        toolCalls: [
          { name: 'lookup_price', arguments: { symbol: 'HALF' } },
          { name: 'lookup_price', arguments: { hypothesis: 'h', symbol: 'ACME' } },
        ],
        usage: { inputTokens: 100, outputTokens: 10 },
      },
      { ...callWith('ACME'), usage: { inputTokens: 150, outputTokens: 12 } },
    ]);
    const validatorModel = scriptedModel([
      { ...verdict(false, 'No price.'), usage: { inputTokens: 50, outputTokens: 5 } },
      { ...verdict(true, 'ok'), usage: { inputTokens: 50, outputTokens: 5 } },
    ]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });

    const details = await prices.runWithDetails({ task: 'Price of ACME' });

    expect(invocations).toEqual([{ symbol: 'HALF' }, { symbol: 'ACME' }]);
    expect(details.attempts[0]).toMatchObject({ outcome: 'invalid-result', args: { symbol: 'HALF' }, hypothesis: '' });
    expect(details.usage).toEqual({ inputTokens: 350, outputTokens: 32 });
    expect(runnerModel.requests[1]?.messages.slice(3, 5)).toEqual([
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'lookup_price', content: 'HALF: price unavailable' },
      {
        role: 'tool',
        toolCallId: 'call_0_1',
        toolName: 'lookup_price',
        content: 'Not run: only the first call of a reply is run. Call "lookup_price" once per reply.',
        isError: true,
      },
    ]);
  });
});
