import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ApprovalError, RunEventSchema, RunSnapshotError, defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { paymentsAgent, transfers } from './fixtures/paymentsAgent.js';
import { deleteFile, eventsOf, recordEvents, waitForState } from './helpers.js';

const listFiles = (executed: string[]) =>
  defineTool({
    name: 'list_files',
    description: 'Lists files.',
    parameters: z.object({}),
    execute: () => {
      executed.push('list');
      return 'a.txt b.txt';
    },
  });

function filesAgent(executed: string[], toolCalls: { id: string; name: string; arguments?: unknown }[]) {
  const model = scriptedModel([{ toolCalls }, { text: 'done' }]);
  return { model, agent: createAgent({ name: 'files', model, tools: [deleteFile(executed), listFiles(executed)] }) };
}

beforeEach(() => {
  transfers.length = 0;
});

describe('approval', () => {
  it("a call of an 'always' tool waits in awaitingApproval with approval-request events; approve(id) runs the batch", async () => {
    const executed: string[] = [];
    const { agent } = filesAgent(executed, [
      { id: 'd1', name: 'delete_file', arguments: { path: '/tmp/a.txt' } },
      { id: 'l1', name: 'list_files' },
    ]);
    const run = agent.run('Delete a.txt');
    const events = recordEvents(run);
    await waitForState(run, 'awaitingApproval');

    expect(run.pendingApprovals).toEqual([{ id: 'd1', toolName: 'delete_file', arguments: { path: '/tmp/a.txt' }, step: 1 }]);
    expect(eventsOf(events, 'approval.requested')).toEqual([
      {
        type: 'approval.requested',
        runId: run.runId,
        agent: 'files',
        step: 1,
        id: 'd1',
        toolName: 'delete_file',
        arguments: { path: '/tmp/a.txt' },
      },
    ]);
    // The whole batch waits for the decision: nothing has run yet.
    expect(executed).toEqual([]);

    run.approve('d1');
    const result = await run.result;
    expect(executed.sort()).toEqual(['delete /tmp/a.txt', 'list']);
    expect(result.stopReason).toBe('completed');
    expect(run.pendingApprovals).toEqual([]);
    expect(eventsOf(events, 'approval.decided')).toEqual([
      { type: 'approval.decided', runId: run.runId, agent: 'files', step: 1, id: 'd1', toolName: 'delete_file', approved: true },
    ]);
    for (const event of events) expect(RunEventSchema.parse(event)).toEqual(event);
  });

  it('a rejected call never runs and its result is "rejected by the user" with the reason', async () => {
    const executed: string[] = [];
    const { agent, model } = filesAgent(executed, [
      { id: 'd1', name: 'delete_file', arguments: { path: '/etc/passwd' } },
      { id: 'd2', name: 'delete_file', arguments: { path: '/tmp/b.txt' } },
    ]);
    const run = agent.run('Clean up');
    await waitForState(run, 'awaitingApproval');
    run.reject('d1', 'system files stay');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['d2']);
    run.reject('d2');
    const result = await run.result;

    expect(executed).toEqual([]);
    expect(model.requests[1]?.messages.slice(-2)).toEqual([
      {
        role: 'tool',
        toolCallId: 'd1',
        toolName: 'delete_file',
        content: 'The call of "delete_file" was rejected by the user and did not run. Reason: system files stay',
      },
      {
        role: 'tool',
        toolCallId: 'd2',
        toolName: 'delete_file',
        content: 'The call of "delete_file" was rejected by the user and did not run.',
      },
    ]);
    expect(result.toolCalls.map((record) => record.isError)).toEqual([false, false]);
  });

  it('a predicate decides per call from the validated arguments and the call context', async () => {
    const asked: unknown[] = [];
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ amount: z.coerce.number() }),
      approval: (args, ctx) => {
        asked.push({ args, ctx });
        return args.amount > 100;
      },
      execute: ({ amount }) => `paid ${amount}`,
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'small', name: 'pay', arguments: { amount: '20' } }] },
      { toolCalls: [{ id: 'big', name: 'pay', arguments: { amount: 500 } }] },
      { text: 'ok' },
    ]);
    const run = createAgent({ name: 'payer', model, tools: [pay] }).run('pay');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['big']);
    expect(asked).toEqual([
      { args: { amount: 20 }, ctx: { callId: 'small', toolName: 'pay', agentName: 'payer', runId: run.runId } },
      { args: { amount: 500 }, ctx: { callId: 'big', toolName: 'pay', agentName: 'payer', runId: run.runId } },
    ]);
    run.approve('big');
    expect((await run.result).toolCalls.map((record) => record.content)).toEqual(['paid 20', 'paid 500']);
  });

  it('a predicate that throws asks for approval (the safe side)', async () => {
    const pay = defineTool({
      name: 'pay',
      description: 'Pays.',
      parameters: z.object({ amount: z.number() }),
      approval: () => {
        throw new Error('limits service down');
      },
      execute: ({ amount }) => `paid ${amount}`,
    });
    const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: 5 } }] }, { text: 'ok' }]);
    const run = createAgent({ name: 'payer', model, tools: [pay] }).run('pay');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals).toEqual([{ id: 'p1', toolName: 'pay', arguments: { amount: 5 }, step: 1 }]);
    run.approve('p1');
    expect((await run.result).toolCalls.map((record) => record.content)).toEqual(['paid 5']);
  });

  it("a tool with approval 'never' (the default) and calls that cannot run never wait", async () => {
    const executed: string[] = [];
    const { agent } = filesAgent(executed, [
      { id: 'l1', name: 'list_files' },
      { id: 'd1', name: 'delete_file', arguments: { path: 42 } },
    ]);
    const run = agent.run('go');
    const events = recordEvents(run);
    const result = await run.result;
    expect(eventsOf(events, 'approval.requested')).toEqual([]);
    expect(result.toolCalls.map((record) => record.isError)).toEqual([false, true]);
  });

  it('a oneCallAtATime call beside other calls is refused without asking for approval', async () => {
    const executed: string[] = [];
    const deploy = defineTool({
      name: 'deploy',
      description: 'Deploys.',
      parameters: z.object({}),
      approval: 'always',
      oneCallAtATime: true,
      execute: () => 'deployed',
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'dep', name: 'deploy' },
          { id: 'l1', name: 'list_files' },
        ],
      },
      {
        toolCalls: [
          { id: 'dep2', name: 'deploy' },
          { id: 'd1', name: 'delete_file', arguments: { path: 'x' } },
        ],
      },
      { text: 'done' },
    ]);
    const run = createAgent({ name: 'ops', model, tools: [deploy, deleteFile(executed), listFiles(executed)] }).run('go');
    const events = recordEvents(run);
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['d1']);
    run.approve('d1');
    const result = await run.result;
    expect(eventsOf(events, 'approval.requested').map((event) => event.id)).toEqual(['d1']);
    expect(executed).toEqual(['list', 'delete x']);
    expect(result.toolCalls.map((record) => record.content.split(',')[0])).toEqual([
      'Tool "deploy" must be called on its own',
      'a.txt b.txt',
      'Tool "deploy" must be called on its own',
      'deleted x',
    ]);
  });

  it('approve/reject of an id that is not pending throws ApprovalError and changes nothing', async () => {
    const executed: string[] = [];
    const { agent } = filesAgent(executed, [{ id: 'd1', name: 'delete_file', arguments: { path: 'x' } }]);
    const run = agent.run('go');
    expect(() => run.approve('d1')).toThrow(ApprovalError);
    await waitForState(run, 'awaitingApproval');
    expect(() => run.reject('nope')).toThrow('No pending approval request has id "nope". Pending: d1.');
    expect(() => run.reject('d1', { why: 'no' } as never)).toThrow(
      'run.reject(id, reason): the reason is shown to the model, so it must be a string (got a value of type object).',
    );
    run.approve('d1');
    expect(() => run.approve('d1')).toThrow(ApprovalError);
    await run.result;
    expect(executed).toEqual(['delete x']);
  });

  it('aborting a run that waits for approval ends it aborted without running the call', async () => {
    const executed: string[] = [];
    const { agent } = filesAgent(executed, [{ id: 'd1', name: 'delete_file', arguments: { path: 'x' } }]);
    const run = agent.run('go');
    await waitForState(run, 'awaitingApproval');
    run.abort();
    expect((await run.result).stopReason).toBe('aborted');
    expect(executed).toEqual([]);
  });

  it('a waiting run survives a JSON round trip into a fresh agent, shared state and transcript included', async () => {
    const first = paymentsAgent();
    const run = first.agent.run('Pay Bob 250 from ACC-1.');
    await waitForState(run, 'awaitingApproval');
    const stored = JSON.stringify(run.persist());
    run.abort();

    const second = paymentsAgent();
    const resumed = second.agent.resume(JSON.parse(stored));
    expect(resumed.runId).toBe(run.runId);
    expect(resumed.pendingApprovals).toEqual([{ id: 'pay', toolName: 'transfer', arguments: { to: 'Bob', amount: 250 }, step: 2 }]);
    resumed.approve('pay');
    const result = await resumed.result;

    expect(transfers).toEqual(['250 to Bob']);
    expect(result.text).toBe('Done: Transferred 250 to Bob from ACC-1');
    expect(result.state).toEqual({ account: 'ACC-1' });
    expect(result.steps).toBe(3);
    expect(result.toolCalls.map((record) => record.call.id)).toEqual(['look', 'pay']);
    expect(second.model.requests).toHaveLength(1);
    expect(second.model.requests[0]?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
  });

  it('a run persisted in another process resumes here', async () => {
    const script = fileURLToPath(new URL('./fixtures/persistWaitingRun.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], { timeout: 15_000 });
    const { agent } = paymentsAgent();
    const resumed = agent.resume(JSON.parse(stdout));
    resumed.reject('pay', 'too much');
    const result = await resumed.result;
    expect(transfers).toEqual([]);
    expect(result.text).toBe('Done: The call of "transfer" was rejected by the user and did not run. Reason: too much');
    expect(result.state).toEqual({ account: 'ACC-1' });
  });

  // run-snapshot-v2-main-7901757.json: written by main at 7901757, whose runs invoked their tool runner at start
  // (the snapshot lists it among the children); runs now spawn it with their first full-path batch.
  it.each(['run-snapshot-v1.json', 'run-snapshot-v2.json', 'run-snapshot-v2-main-7901757.json'])(
    'persisted runs in the test corpus still resume (%s)',
    async (file) => {
      const fixture = JSON.parse(await readFile(new URL(`./fixtures/${file}`, import.meta.url), 'utf8'));
      const resumed = paymentsAgent().agent.resume(fixture);
      resumed.approve('pay');
      expect((await resumed.result).text).toBe('Done: Transferred 250 to Bob from ACC-1');
    },
  );

  it('the live tool list is persisted by name and resolved from addableTools or resume({ tools })', async () => {
    const wired: string[] = [];
    const wire = defineTool({
      name: 'wire',
      description: 'Wires money.',
      parameters: z.object({}),
      approval: 'always',
      execute: () => {
        wired.push('wire');
        return 'wired';
      },
    });
    const unlock = defineTool({
      name: 'unlock',
      description: 'Unlocks wire.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.addTools(wire);
        return 'unlocked';
      },
    });
    const script = scriptedModel((request) => {
      const done = request.messages.filter((message) => message.role === 'tool').length;
      return done === 0 ? { toolCalls: [{ id: 'u', name: 'unlock' }] } : done === 1 ? { toolCalls: [{ id: 'w', name: 'wire' }] } : { text: 'ok' };
    });
    const run = createAgent({ name: 'bank', model: script, tools: [unlock] }).run('go');
    await waitForState(run, 'awaitingApproval');
    const snapshot = JSON.parse(JSON.stringify(run.persist()));
    run.abort();
    expect(snapshot.liveTools).toEqual(['unlock', 'wire']);

    const viaAddable = createAgent({ name: 'bank', model: script, tools: [unlock], addableTools: [wire] }).resume(snapshot);
    viaAddable.approve('w');
    const viaOption = createAgent({ name: 'bank', model: script, tools: [unlock] }).resume(snapshot, { tools: [wire] });
    viaOption.approve('w');
    expect((await viaAddable.result).text).toBe('ok');
    expect((await viaOption.result).text).toBe('ok');
    expect(wired).toEqual(['wire', 'wire']);
  });

  it('only a run that waits for approval can be persisted', async () => {
    const { agent } = paymentsAgent();
    const run = agent.run('Pay');
    let error: unknown;
    try {
      run.persist();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RunSnapshotError);
    expect((error as RunSnapshotError).code).toBe('RUN_NOT_PERSISTABLE');
    await waitForState(run, 'awaitingApproval');
    run.abort();
    await run.result;
  });

  it('resume rejects snapshots that are not runs, of another agent or version, or that need tools it lacks', async () => {
    const { agent } = paymentsAgent();
    const run = agent.run('Pay');
    await waitForState(run, 'awaitingApproval');
    const snapshot = run.persist();
    run.abort();

    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return [(error as RunSnapshotError).code, (error as Error).message];
      }
      return undefined;
    };
    expect(codeOf(() => agent.resume({ hello: 'world' }))?.[0]).toBe('RUN_SNAPSHOT_INVALID');
    expect(codeOf(() => agent.resume({ ...snapshot, version: 99 }))).toEqual([
      'RUN_SNAPSHOT_INVALID',
      'Persisted run version 99 is not supported; this version of agentchart reads versions 1, 2.',
    ]);
    const other = createAgent({ name: 'other', model: scriptedModel([]) });
    expect(codeOf(() => other.resume(snapshot))?.[1]).toBe('The persisted run belongs to agent "payments"; resume it with that agent, not "other".');
    const lacking = createAgent({ name: 'payments', model: scriptedModel([]), tools: [] });
    expect(codeOf(() => lacking.resume(snapshot))).toEqual([
      'RUN_SNAPSHOT_TOOL_MISSING',
      'The persisted run uses tools the resuming agent does not know: lookup_account, transfer. ' +
        'Pass the tools that were added during the run: agent.resume(snapshot, { tools: [...] }).',
    ]);
  });
});
