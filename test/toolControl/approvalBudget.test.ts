import { rules } from '@agentchart/core';
import { type Agent, type RunResult, createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { deleteFile, dropTable, simpleTool, waitForState } from './helpers.js';

const LIMIT_REACHED = (n: number) => `Not executed: this run may execute at most ${n} tool calls (maxToolCalls).`;

/** Runs the agent; an approval request ends the run (`aborted`), so a wrong one fails fast. */
async function runAndRecordApprovalRequests(agent: Agent): Promise<{ asked: string[]; result: RunResult }> {
  const run = agent.run('go');
  const asked: string[] = [];
  run.events$.subscribe((event) => {
    if (event.type !== 'approval.requested') return;
    asked.push(event.id);
    run.abort();
  });
  return { asked, result: await run.result };
}

/** What both "beyond the budget" batches end with: ping ran, the other call was answered, nobody was asked. */
function expectAnsweredWithoutAsking({ asked, result }: { asked: string[]; result: RunResult }, executed: string[]): void {
  expect(asked).toEqual([]);
  expect(result.stopReason).toBe('max-tool-calls');
  expect(executed).toEqual([]);
  expect(result.toolCalls.map((record) => record.content)).toEqual(['ping ran', LIMIT_REACHED(1)]);
}

describe('approval within the tool-call budget (maxToolCalls)', () => {
  it('a call beyond the budget is never put to a person: it is answered "limit reached" without running', async () => {
    const executed: string[] = [];
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'p1', name: 'ping' },
          { id: 'd1', name: 'delete_file', arguments: { path: 'a.txt' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = createAgent({ name: 'files', model, tools: [simpleTool('ping'), deleteFile(executed)], maxToolCalls: 1 });
    expectAnsweredWithoutAsking(await runAndRecordApprovalRequests(agent), executed);
  });

  it('only the calls within the budget are asked about; a rejection does not hand its place to a later call', async () => {
    const executed: string[] = [];
    const model = scriptedModel([
      {
        toolCalls: ['a', 'b', 'c'].map((name) => ({ id: name, name: 'delete_file', arguments: { path: `${name}.txt` } })),
      },
      { text: 'done' },
    ]);
    const run = createAgent({ name: 'files', model, tools: [deleteFile(executed)], maxToolCalls: 2 }).run('go');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['a', 'b']);

    run.reject('a');
    run.approve('b');
    const result = await run.result;
    expect(executed).toEqual(['delete b.txt']);
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      'The call of "delete_file" was rejected by the user and did not run.',
      'deleted b.txt',
      LIMIT_REACHED(2),
    ]);
  });

  it('a call a requiresApproval rule holds is not asked about when it is beyond the budget', async () => {
    const executed: string[] = [];
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'p1', name: 'ping' },
          { id: 'd1', name: 'drop_table', arguments: { table: 'users' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = createAgent({
      name: 'dba',
      model,
      tools: [simpleTool('ping'), dropTable(executed)],
      toolRules: [rules.requiresApproval('drop_table')],
      maxToolCalls: 1,
    });
    expectAnsweredWithoutAsking(await runAndRecordApprovalRequests(agent), executed);
  });

  it('when a call within the budget asks for approval, a rule-held call beyond it is still not asked about', async () => {
    const executed: string[] = [];
    const model = scriptedModel([
      {
        toolCalls: [
          { id: 'd1', name: 'delete_file', arguments: { path: 'a.txt' } },
          { id: 't1', name: 'drop_table', arguments: { table: 'users' } },
        ],
      },
      { text: 'done' },
    ]);
    const agent = createAgent({
      name: 'dba',
      model,
      tools: [deleteFile(executed), dropTable(executed)],
      toolRules: [rules.requiresApproval('drop_table')],
      maxToolCalls: 1,
    });
    const run = agent.run('go');
    await waitForState(run, 'awaitingApproval');
    expect(run.pendingApprovals.map((request) => request.id)).toEqual(['d1']);

    run.approve('d1');
    const result = await run.result;
    expect(executed).toEqual(['delete a.txt']);
    expect(result.toolCalls.map((record) => record.content)).toEqual(['deleted a.txt', LIMIT_REACHED(1)]);
  });
});
