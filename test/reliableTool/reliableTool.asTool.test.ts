import { createAgent, reliableTool } from '@agentchart/actors';
import { type RunEvent, ToolError, defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callWith, priceTool, verdict } from './fixtures.js';

describe('reliableTool as a tool', () => {
  it('runs inside an agent: the agent gets the value, its model sees the validated text', async () => {
    const { tool } = priceTool();
    const runnerModel = scriptedModel([callWith('BAD'), callWith('ACME')]);
    const validatorModel = scriptedModel([verdict(true, 'ok')]);
    const prices = reliableTool({ name: 'reliable_price', tool, runnerModel, validatorModel });
    const model = scriptedModel([
      { toolCalls: [{ name: 'reliable_price', arguments: { task: 'Latest price of ACME' } }] },
      { text: 'ACME trades at 42 USD.' },
    ]);
    const agent = createAgent({ name: 'analyst', model, tools: [prices] });

    const result = await agent.run('How much is ACME?').result;

    expect(result.text).toBe('ACME trades at 42 USD.');
    expect(result.toolCalls).toEqual([
      {
        step: 1,
        call: { id: 'call_0_0', name: 'reliable_price', arguments: { task: 'Latest price of ACME' } },
        content: 'ACME: 42 USD',
        isError: false,
        value: { symbol: 'ACME', price: 42 },
      },
    ]);
    expect(model.requests[0]?.tools).toEqual([
      {
        name: 'reliable_price',
        description: 'Looks up the latest price of a stock symbol.',
        parameters: {
          type: 'object',
          properties: { task: { type: 'string', minLength: 1, description: expect.any(String) } },
          required: ['task'],
        },
      },
    ]);
    expect(runnerModel.requests[0]?.messages.at(-1)).toEqual({ role: 'user', content: 'Latest price of ACME' });
  });

  it('reports exhaustion to the agent as a tool error naming the last failure', async () => {
    const { tool } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel: scriptedModel(() => callWith('BAD')),
      validatorModel: scriptedModel([]),
      maxToolInvocations: 1,
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'reliable_price', arguments: { task: 'ACME' } }] }, { text: 'Sorry.' }]);

    const run = createAgent({ name: 'analyst', model, tools: [prices] }).run('Price?');
    const events: RunEvent[] = [];
    run.events$.subscribe((event) => events.push(event));
    const result = await run.result;

    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(events.flatMap((event) => (event.type === 'tool.result' ? [event.error?.code] : []))).toEqual(['RELIABLE_TOOL_EXHAUSTED']);
    expect(result.toolCalls[0]?.content).toBe(
      'Tool "reliable_price" failed: reliableTool "reliable_price": no result passed validation in 1 attempt(s); ' +
        'the last failed because "lookup_price" failed: unknown symbol BAD. Raise maxToolInvocations, state the validation ' +
        'criteria more clearly, or guide the runner with runnerInstructions, messages or groundTruth.',
    );
  });

  it("gives the wrapped tool the calling agent's shared state, and a run of its own otherwise", async () => {
    const convert = defineTool({
      name: 'convert',
      description: 'Converts 10 USD to the currency in shared state.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        const currency = ctx.state.get('currency');
        if (currency === undefined) throw new ToolError('Set a currency first.');
        ctx.state.set('converted', true);
        return `10 USD = 9 ${String(currency)}`;
      },
    });
    const runnerModel = scriptedModel(() => ({ toolCalls: [{ name: 'convert', arguments: { hypothesis: 'h' } }] }));
    const converter = reliableTool({
      name: 'reliable_convert',
      tool: convert,
      runnerModel,
      validatorModel: scriptedModel(() => verdict(true, 'ok')),
      maxToolInvocations: 1,
    });

    const alone = await converter.runWithDetails({ task: 'Convert' });
    expect(alone.attempts[0]).toMatchObject({ outcome: 'execution-error', failureReason: 'Set a currency first.' });

    const model = scriptedModel([{ toolCalls: [{ name: 'reliable_convert', arguments: { task: 'Convert' } }] }, { text: 'Done.' }]);
    const run = createAgent({ name: 'banker', model, tools: [converter] }).run('Convert 10 USD', { state: { currency: 'EUR' } });
    const result = await run.result;
    expect(result.toolCalls[0]?.content).toBe('10 USD = 9 EUR');
    expect(run.state.get('converted')).toBe(true);
  });

  it("validates the runner's arguments with validators that read shared state; their refusals count as attempts", async () => {
    const convert = defineTool({
      name: 'convert',
      description: 'Converts 10 USD to a currency the bank offers (listed in shared state).',
      parameters: (ctx) =>
        z.object({ currency: z.string() }).superRefine(({ currency }, issues) => {
          const offered = ctx.state.get('currencies') as string[];
          if (currency === 'XXX') throw new ToolError('XXX is a test code: use a real currency.');
          if (!offered.includes(currency)) {
            issues.addIssue({ code: 'custom', path: ['currency'], message: `Offered currencies: ${offered.join(', ')}.` });
          }
        }),
      execute: ({ currency }) => `10 USD = 9 ${currency}`,
    });
    const call = (currency: string) => ({ toolCalls: [{ name: 'convert', arguments: { hypothesis: 'h', currency } }] });
    const converter = reliableTool({
      name: 'reliable_convert',
      tool: convert,
      runnerModel: scriptedModel([call('GBP'), call('XXX'), call('EUR')]),
      validatorModel: scriptedModel(() => verdict(true, 'ok')),
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'reliable_convert', arguments: { task: 'Convert' } }] }, { text: 'Done.' }]);

    const run = createAgent({ name: 'banker', model, tools: [converter] }).run('Convert 10 USD', {
      state: { currencies: ['EUR', 'CHF'] },
    });
    const result = await run.result;

    expect(result.toolCalls[0]?.content).toBe('10 USD = 9 EUR');
    const details = await reliableTool({
      name: 'reliable_convert',
      tool: convert,
      runnerModel: scriptedModel([call('GBP'), call('XXX')]),
      validatorModel: scriptedModel([]),
      maxToolInvocations: 2,
    }).runWithDetails({ task: 'Convert', state: run.state }); // an ended run's state is still readable
    expect(details.attempts.map(({ outcome, failureReason }) => ({ outcome, failureReason }))).toEqual([
      {
        outcome: 'no-valid-call',
        failureReason: 'Invalid arguments for tool "convert":\n- currency: Offered currencies: EUR, CHF.\nFix these and call "convert" again.',
      },
      { outcome: 'no-valid-call', failureReason: 'XXX is a test code: use a real currency.' },
    ]);
  });

  it('needs approval in an agent when the wrapped tool does: a person approves the task before any invocation', async () => {
    const paid: number[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays an amount.',
      parameters: z.object({ amount: z.number() }),
      approval: ({ amount }) => amount > 100,
      execute: ({ amount }) => {
        paid.push(amount);
        return `paid ${amount}`;
      },
    });
    const runnerModel = scriptedModel(() => ({ toolCalls: [{ name: 'pay', arguments: { hypothesis: 'h', amount: 250 } }] }));
    const payer = reliableTool({ name: 'reliable_pay', tool: pay, runnerModel, validatorModel: scriptedModel(() => verdict(true, 'ok')) });
    const { tool: lookup } = priceTool();
    const plain = reliableTool({ name: 'reliable_price', tool: lookup, runnerModel: scriptedModel([]), validatorModel: scriptedModel([]) });
    expect([payer.approval, plain.approval]).toEqual(['always', 'never']);

    const model = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'reliable_pay', arguments: { task: 'Pay Bob 250' } }] }, { text: 'Paid.' }]);
    const run = createAgent({ name: 'clerk', model, tools: [payer] }).run('Pay Bob 250.');
    await new Promise<void>((resolve) => run.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
    expect(run.pendingApprovals).toEqual([{ id: 'r1', toolName: 'reliable_pay', arguments: { task: 'Pay Bob 250' }, step: 1 }]);
    expect([runnerModel.requests.length, paid]).toEqual([0, []]);
    run.approve('r1');
    expect((await run.result).toolCalls[0]?.content).toBe('paid 250');
    expect(paid).toEqual([250]);
  });

  it('describes itself in the tools and the legacy functions formats', () => {
    const { tool } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool,
      runnerModel: scriptedModel([]),
      validatorModel: scriptedModel([]),
      description: 'Reliably looks up a validated stock price.',
      dynamicValidation: true,
    });
    const parameters = {
      type: 'object',
      properties: {
        task: { type: 'string', minLength: 1, description: expect.any(String) },
        validationPromptAddition: { type: 'string', description: expect.any(String) },
      },
      required: ['task'],
    };
    const functionSchema = { name: 'reliable_price', description: 'Reliably looks up a validated stock price.', parameters };
    expect(prices.functionSchema).toEqual(functionSchema);
    expect(prices.toolSchema).toEqual({ type: 'function', function: functionSchema });
    expect(prices.maxToolInvocations).toBe(3);
    expect(prices.tool).toBe(tool);
  });
});
