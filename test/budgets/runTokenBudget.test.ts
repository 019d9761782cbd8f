import { createAgent } from '@agentchart/actors';
import { ConfigurationError, defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

/** A model that calls `add` on every call, reporting 100 input and 20 output tokens each time. */
const looping = () =>
  scriptedModel(() => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], usage: { inputTokens: 100, outputTokens: 20 } }), { name: 'm' });

describe('token budgets on a run', () => {
  it('ends the run with stop reason token-budget after the step that spends it, with the usage so far', async () => {
    const agent = createAgent({ name: 'adder', model: looping(), tools: [add], maxSteps: 10, maxTokens: 300 });
    const result = await agent.run('Add forever.').result;
    // 120 tokens per step: the third step reaches 360 ≥ 300; its tool call still ran.
    expect(result.stopReason).toBe('token-budget');
    expect(result.steps).toBe(3);
    expect(result.usage).toEqual({ inputTokens: 300, outputTokens: 60 });
    expect(result.toolCalls).toHaveLength(3);
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'add', content: '3' });
  });

  it('caps input and output tokens each; a run option overrides the agent option', async () => {
    const agent = createAgent({ name: 'adder', model: looping(), tools: [add], maxSteps: 10, maxTokens: { output: 50 } });
    const byOutput = await agent.run('Go.').result;
    expect([byOutput.stopReason, byOutput.steps, byOutput.usage]).toEqual(['token-budget', 3, { inputTokens: 300, outputTokens: 60 }]);
    const byInput = await agent.run('Go.', { maxTokens: { input: 100 } }).result;
    expect([byInput.stopReason, byInput.steps]).toEqual(['token-budget', 1]);
  });

  it('a run that answers within its budget completes; one without usage reports is never stopped by it', async () => {
    const answering = scriptedModel([{ text: 'Hi.', usage: { inputTokens: 10, outputTokens: 5 } }]);
    expect((await createAgent({ name: 'a', model: answering, maxTokens: 1000 }).run('Hi').result).stopReason).toBe('completed');
    const silent = scriptedModel(() => ({ toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }));
    const result = await createAgent({ name: 'a', model: silent, tools: [add], maxSteps: 3, maxTokens: 1 }).run('Go').result;
    expect(result.stopReason).toBe('max-steps');
  });

  it('reports cost from a price table that prices the model (per million tokens)', async () => {
    const agent = createAgent({ name: 'adder', model: looping(), tools: [add], maxTokens: 120, prices: { m: { input: 2, output: 10 } } });
    const result = await agent.run('Go.').result;
    expect(result.cost).toBeCloseTo((100 * 2 + 20 * 10) / 1_000_000, 12);
    const unpriced = await createAgent({ name: 'b', model: looping(), tools: [add], maxTokens: 120, prices: { other: { input: 1, output: 1 } } }).run(
      'Go.',
    ).result;
    expect('cost' in unpriced).toBe(false);
  });

  it('refuses a budget or a price table it cannot use, saying what to give', () => {
    const model = looping();
    const zero = (() => {
      try {
        createAgent({ name: 'a', model, maxTokens: 0 });
      } catch (error) {
        return error;
      }
    })();
    expect(zero).toBeInstanceOf(ConfigurationError);
    expect(zero).toMatchObject({
      code: 'CONFIGURATION_INVALID',
      message: 'createAgent({ name: "a", maxTokens }) must be a whole number of tokens of at least 1; got 0.',
    });
    expect(() => createAgent({ name: 'a', model, maxTokens: { outputs: 5 } as never })).toThrow(
      /unknown key\(s\) outputs: use total, input and output/,
    );
    expect(() => createAgent({ name: 'a', model, maxTokens: {} })).toThrow(/is empty: give total, input or output/);
    expect(() => createAgent({ name: 'a', model, prices: { m: { input: -1, output: 1 } } })).toThrow(
      /\["m"\] needs input and output prices per million tokens/,
    );
    expect(() => createAgent({ name: 'a', model }).run('x', { maxTokens: 1.5 })).toThrow(
      /agent.run\(input, \{ maxTokens \}\) must be a whole number/,
    );
  });
});

describe('a run-level token budget survives a resume', () => {
  const pay = defineTool({
    name: 'pay',
    description: 'Pays (asks first).',
    parameters: z.object({ to: z.string() }),
    approval: 'always',
    execute: ({ to }) => `paid ${to}`,
  });
  /** Asks to pay first, then calls `add` forever: 100 input and 20 output tokens per call. */
  const payThenLoop = () =>
    scriptedModel(
      (request) =>
        request.messages.some((message) => message.role === 'tool')
          ? { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }], usage: { inputTokens: 100, outputTokens: 20 } }
          : { toolCalls: [{ name: 'pay', arguments: { to: 'Bob' } }], usage: { inputTokens: 100, outputTokens: 20 } },
      { name: 'm' },
    );
  const payer = () => createAgent({ name: 'payer', model: payThenLoop(), tools: [add, pay], maxSteps: 50 });

  it('run.persist() and agent.resume(snapshot): maxTokens 250 given to agent.run still stops the resumed run after its third step', async () => {
    const run = payer().run('Pay Bob, then add.', { maxTokens: 250 });
    while (run.pendingApprovals.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const snapshot = JSON.parse(JSON.stringify(run.persist()));
    const resumed = payer().resume(snapshot);
    resumed.approve(resumed.pendingApprovals[0]?.id as string);
    const result = await resumed.result;
    expect([result.stopReason, result.steps, result.usage]).toEqual(['token-budget', 3, { inputTokens: 300, outputTokens: 60 }]);
  });

  it('a run kept in a store: resumed from its checkpoint, the run keeps its maxTokens', async () => {
    const { createSqliteRunStore } = await import('@agentchart/store/sqlite');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { resumeRunFromStore } = await import('@agentchart/actors');
    const dir = mkdtempSync(join(tmpdir(), 'agentchart-budget-'));
    const { testClock } = await import('../store/runStoreContract.js');
    const clock = testClock();
    const store = await createSqliteRunStore({ path: join(dir, 'runs.db'), now: clock.now });
    try {
      const run = payer().run('Pay Bob, then add.', { maxTokens: 250, store, runId: 'budgeted', owner: 'w1' });
      while ((await store.loadRun('budgeted'))?.status !== 'waiting') await new Promise((resolve) => setTimeout(resolve, 2));
      clock.advance(60_000); // its process is gone
      const durable = await resumeRunFromStore(payer(), 'budgeted', { store, owner: 'w2' });
      durable.run.approve(durable.run.pendingApprovals[0]?.id as string);
      const result = await durable.run.result;
      expect([result.stopReason, result.steps]).toEqual(['token-budget', 3]);
      await durable.settled;
      run.abort();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
