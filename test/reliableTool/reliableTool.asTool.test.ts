import { createAgent, reliableTool } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
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

    const result = await createAgent({ name: 'analyst', model, tools: [prices] }).run('Price?').result;

    expect(result.toolCalls[0]).toMatchObject({ isError: true });
    expect(result.toolCalls[0]?.content).toBe(
      'Tool "reliable_price" failed: reliableTool "reliable_price": no result passed validation in 1 attempt(s); ' +
        'the last failed because "lookup_price" failed: unknown symbol BAD. Raise maxToolInvocations, state the validation ' +
        'criteria more clearly, or guide the runner with runnerInstructions, messages or groundTruth.',
    );
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
