import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { mathAgent, mathLoaderScript, paymentAgent, paymentScript, recordAgent, recordGateScript } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

const offered = (model: ReturnType<typeof scriptedModel>) => model.requests.map((request) => request.tools.map((tool) => tool.name));

describe('tool-control examples', () => {
  it('loader: the model sees the math tools only after the loader ran', async () => {
    const model = scriptedModel(mathLoaderScript);
    const result = await mathAgent(model).run('What is 5 factorial?').result;
    expect(offered(model)).toEqual([
      ['load_math_tools'],
      ['load_math_tools', 'factorial', 'fibonacci'],
      ['load_math_tools', 'factorial', 'fibonacci'],
    ]);
    expect(result.toolCalls.map((record) => record.content)).toEqual(['Loaded math tools: factorial, fibonacci. You can now call them.', '5! = 120']);
  });

  it('gate: update_record is hidden until get_record ran, and hidden again in the next run', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'update_record', arguments: { record_id: 'R', status: 'x' } }] },
      { toolCalls: [{ name: 'get_record', arguments: { record_id: 'R' } }] },
      { text: 'ok' },
      { text: 'next run' },
    ]);
    const agent = recordAgent(model);
    const result = await agent.run('go').result;
    await agent.run('again').result;
    expect(result.toolCalls[0]?.content).toBe('Unknown tool "update_record". Available tools: get_record.');
    expect(offered(model)).toEqual([['get_record'], ['get_record'], ['get_record', 'update_record'], ['get_record']]);
  });

  it('read-before-write: the middleware rejects an update of another record without running the tool', async () => {
    const result = await recordAgent(scriptedModel(recordGateScript), { middleware: true }).run('go').result;
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      "Record REC-1: title='Example record', status='open'",
      "Error: you must fetch record 'REC-2' before updating it. Last fetched record was 'REC-1'.",
      "Record REC-2: title='Example record', status='open'",
      "Updated record REC-2 to status 'in-progress'.",
    ]);
    expect(result.state).toEqual({ lastFetchedId: 'REC-2' });
  });

  it('approval: only the large transfer waits; a rejection reaches the model', async () => {
    const run = paymentAgent(scriptedModel(paymentScript)).run('Pay Ann 40 and Bob 250.');
    await new Promise<void>((resolve) => run.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['pay_bob']);
    run.reject('pay_bob', 'over budget');
    expect((await run.result).text).toBe(
      'Sent 40 EUR to Ann. The call of "transfer_money" was rejected by the user and did not run. Reason: over budget',
    );
  });

  it('`pnpm example approval` saves the waiting run to disk and finishes it from there', async () => {
    // The other examples are thin scripts over the factories tested above; tsc checks them.
    const runner = fileURLToPath(new URL('../../packages/examples/src/runExample.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', runner, 'approval'], { timeout: 20_000 });
    expect(stdout).toContain('✋ transfer_money({"to":"Bob","amount":250}) waits for approval (id pay_bob)');
    expect(stdout).toContain('result: Sent 40 EUR to Ann. Sent 250 EUR to Bob.');
  });
});
