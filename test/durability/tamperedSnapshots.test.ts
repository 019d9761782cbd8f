import { RunSnapshotError, defineTool, rules } from '@agentchart/core';
import { type AgentRun, createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { waitForState } from '../toolControl/helpers.js';

const KEY = 'a-test-key-of-32-bytes-0123456789';

/**
 * A bank agent: `search` (at most once), `pay` (always asks), `delete_file`
 * (always asks), and `wire` that a run could add. Every execution lands in
 * `ledger`: a refused snapshot must leave it empty.
 */
function bank(options: { snapshotKey?: string } = {}) {
  const ledger: string[] = [];
  const tool = (name: string, approval: 'always' | 'never') =>
    defineTool({
      name,
      description: `The ${name} tool.`,
      parameters: z.object({ target: z.string() }),
      approval,
      execute: ({ target }) => {
        ledger.push(`${name} ${target}`);
        return `${name} ${target} done`;
      },
    });
  const model = scriptedModel((request) => {
    const results = request.messages.filter((message) => message.role === 'tool').length;
    if (results === 0) return { toolCalls: [{ id: 's1', name: 'search', arguments: { target: 'Bob' } }] };
    if (results === 1) return { toolCalls: [{ id: 'pay', name: 'pay', arguments: { target: 'Bob 250' } }] };
    return { text: 'done' };
  });
  const agent = createAgent({
    name: 'bank',
    model,
    tools: [tool('search', 'never'), tool('pay', 'always'), tool('delete_file', 'always')],
    addableTools: [tool('wire', 'never')],
    toolRules: [rules.maxCount('search', 1)],
    ...options,
  });
  return { agent, ledger };
}

/** The tool a run of `bank` may add. */
function wireTool(ledger: string[]) {
  return defineTool({
    name: 'wire',
    description: 'Wires money.',
    parameters: z.object({ target: z.string() }),
    execute: ({ target }) => {
      ledger.push(`wire ${target}`);
      return `wire ${target} done`;
    },
  });
}

/** A waiting run of `bank`, persisted as JSON text would carry it; the original aborted. */
async function persistedWaitingRun(options: { snapshotKey?: string } = {}) {
  const { agent } = bank(options);
  const run = agent.run('Pay Bob 250');
  await waitForState(run, 'awaitingApproval');
  const snapshot = JSON.parse(JSON.stringify(run.persist()));
  run.abort();
  await run.result;
  return snapshot;
}

/** Resumes `snapshot` with a fresh bank agent; returns the error it throws (and that nothing ran). */
function refusal(snapshot: unknown, options: { snapshotKey?: string } = {}): RunSnapshotError {
  const { agent, ledger } = bank(options);
  let resumed: AgentRun | undefined;
  try {
    resumed = agent.resume(snapshot);
  } catch (error) {
    expect(error).toBeInstanceOf(RunSnapshotError);
    expect(ledger).toEqual([]);
    return error as RunSnapshotError;
  }
  resumed.abort();
  throw new Error('the tampered snapshot was resumed');
}

describe('tampered run snapshots end in a clear error and execute nothing', () => {
  it('an untouched snapshot resumes and runs the approved call (the baseline)', async () => {
    const snapshot = await persistedWaitingRun();
    const { agent, ledger } = bank();
    const resumed = agent.resume(snapshot);
    expect(resumed.pendingApprovals.map((request) => request.id)).toEqual(['pay']);
    resumed.approve('pay');
    expect((await resumed.result).text).toBe('done');
    expect(ledger).toEqual(['pay Bob 250']);
  });

  it('a call added to batch.calls is not a call the model made', async () => {
    const snapshot = await persistedWaitingRun();
    snapshot.machine.context.batch.calls.push({ id: 'evil', name: 'delete_file', arguments: { target: '/' } });
    snapshot.machine.context.batch.outcomes.push(null);
    snapshot.machine.context.batch.admitted.push(true);
    snapshot.machine.context.batch.pending = 2;
    const error = refusal(snapshot);
    expect(error.code).toBe('RUN_SNAPSHOT_INVALID');
    expect(error.details.path).toBe('machine.context.batch.calls');
    expect(error.message).toContain('are not the calls of the last model reply');
  });

  it('a call added to the transcript, the draft and the batch, without its approval request, is refused', async () => {
    const snapshot = await persistedWaitingRun();
    const evil = { id: 'evil', name: 'delete_file', arguments: { target: '/' } };
    const { context } = snapshot.machine;
    context.messages.at(-1).toolCalls.push(evil);
    context.draft.toolCalls.push(evil);
    context.batch.calls.push(evil);
    context.batch.outcomes.push(null);
    context.batch.admitted.push(true);
    context.batch.pending = 2;
    context.rules.last = 'delete_file'; // what the rules say after the added call
    const error = refusal(snapshot);
    expect(error.details.path).toBe('machine.context.batch.calls.1');
    expect(error.message).toContain('call "evil" of "delete_file" needs approval but is not among the requests');
  });

  it('a reset rules.counts is not the rule state the transcript leads to', async () => {
    const snapshot = await persistedWaitingRun();
    expect(snapshot.machine.context.rules.counts).toEqual({ search: 1 });
    snapshot.machine.context.rules.counts = {};
    // The rules' machine is a child only in runs someone inspects; edit it too where it is there.
    if (snapshot.machine.children.toolRules) snapshot.machine.children.toolRules.snapshot.context.counts = {};
    const error = refusal(snapshot);
    expect(error.details.path).toBe('machine.context.rules');
    expect(error.message).toContain('is not the rule state the run\'s calls lead to ({"last":"pay","called":[],"counts":{"search":1}');
  });

  it('a tool added to liveTools that no call added is refused, unsigned too, and nothing runs', async () => {
    const snapshot = await persistedWaitingRun();
    expect(snapshot.liveTools).toEqual(['search', 'pay', 'delete_file']);
    snapshot.liveTools.push('wire'); // an addable tool, but no tool of the run added it
    const error = refusal(snapshot);
    expect(error.details).toMatchObject({ path: 'liveTools', never: ['wire'] });
    expect(error.message).toContain('"wire" was never added (no call of the run added it)');
  });

  it('a tool change credited to a call that never ran is refused', async () => {
    const snapshot = await persistedWaitingRun();
    snapshot.liveTools.push('wire');
    snapshot.toolChanges = [{ by: 'pay', added: ['wire'], removed: [] }]; // pay waits for approval: it has not run
    const error = refusal(snapshot);
    expect(error.details.path).toBe('toolChanges.0');
    expect(error.message).toContain('"pay" is not a call the run executed');
  });

  it('a tool that a call of the run added is resumed with it, and one passed for resuming is accepted as given', async () => {
    const { agent: bankAgent } = bank();
    const ledger: string[] = [];
    const opener = defineTool({
      name: 'search',
      description: 'Searches, and opens the wire tool.',
      parameters: z.object({ target: z.string() }),
      execute: ({ target }, ctx) => {
        ctx.addTools(wireTool(ledger));
        return `search ${target} done`;
      },
    });
    const agent = createAgent({
      name: 'bank',
      model: scriptedModel((request) =>
        request.messages.some((message) => message.role === 'tool')
          ? { toolCalls: [{ id: 'pay', name: 'pay', arguments: { target: 'Bob 250' } }] }
          : { toolCalls: [{ id: 's1', name: 'search', arguments: { target: 'Bob' } }] },
      ),
      tools: [opener, ...bankAgent.tools.filter((tool) => tool.name !== 'search')],
      addableTools: [wireTool(ledger)],
    });
    const run = agent.run('Pay Bob 250');
    await waitForState(run, 'awaitingApproval');
    const snapshot = JSON.parse(JSON.stringify(run.persist()));
    run.abort();
    expect(snapshot.liveTools).toEqual(['search', 'pay', 'delete_file', 'wire']);
    expect(snapshot.toolChanges).toEqual([{ by: 's1', added: ['wire'], removed: [] }]);
    const resumed = agent.resume(snapshot);
    expect(resumed.pendingApprovals.map((request) => request.id)).toEqual(['pay']);
    resumed.abort();
    // Without the record of the change, only a tool passed explicitly for resuming is accepted.
    const { toolChanges: _dropped, ...unrecorded } = snapshot;
    expect(() => agent.resume(unrecorded)).toThrow(/"wire" was never added/);
    agent.resume(unrecorded, { tools: [wireTool(ledger)] }).abort();
  });

  it('a tool added to liveTools is refused when snapshots are signed', async () => {
    const snapshot = await persistedWaitingRun({ snapshotKey: KEY });
    snapshot.liveTools.push('wire');
    const error = refusal(snapshot, { snapshotKey: KEY });
    expect(error.code).toBe('SNAPSHOT_TAMPERED');
    expect(error.message).toContain('signature does not match its content');
  });

  it.each([
    ['no-such-state', 'machine.value'],
    ['idle', 'machine.value'],
    [{ thinking: 'x' }, 'machine.value'],
  ])('machine.value %j is refused with its path, not a TypeError', async (value, path) => {
    const snapshot = await persistedWaitingRun();
    snapshot.machine.value = value;
    const error = refusal(snapshot);
    expect(error.code).toBe('RUN_SNAPSHOT_INVALID');
    expect(error.details.path).toBe(path);
    expect(error.message).toContain('a run is persisted only while it waits for approval');
  });

  it('a decision written into the snapshot (nothing left to wait for) is refused instead of hanging', async () => {
    const snapshot = await persistedWaitingRun();
    snapshot.machine.context.approvals.decisions.pay = { approved: true };
    const error = refusal(snapshot);
    expect(error.details.path).toBe('machine.context.approvals.decisions');
    expect(error.message).toContain('a waiting run has at least one open request');
  });

  it('a decision for a call that is not requested is refused', async () => {
    const snapshot = await persistedWaitingRun();
    snapshot.machine.context.approvals.decisions.evil = { approved: true };
    expect(refusal(snapshot).details.path).toBe('machine.context.approvals.decisions.evil');
  });

  it('an approval request moved to another tool or arguments does not match its call', async () => {
    const snapshot = await persistedWaitingRun();
    snapshot.machine.context.approvals.requests[0].arguments = { target: 'Bob 1' };
    expect(refusal(snapshot).details.path).toBe('machine.context.approvals.requests.0');
  });

  it('an earlier tool result edited in the records is refused', async () => {
    const snapshot = await persistedWaitingRun();
    snapshot.machine.context.toolCalls[0].content = 'search Mallory done';
    expect(refusal(snapshot).details.path).toBe('machine.context.toolCalls.0.content');
  });

  it('an unknown field, a stop reason or a negative count is refused with its path', async () => {
    const base = await persistedWaitingRun();
    // biome-ignore lint/suspicious/noExplicitAny: the test tampers with any field of a persisted snapshot
    const edit = (change: (snapshot: any) => void) => {
      const copy = structuredClone(base);
      change(copy);
      return refusal(copy).details.path;
    };
    expect(edit((s) => (s.machine.context.extra = 1))).toBe('machine.context');
    expect(edit((s) => (s.machine.context.stopReason = 'completed'))).toBe('machine.context');
    expect(edit((s) => (s.machine.context.toolCallCount = -1))).toBe('machine.context.toolCallCount');
    expect(edit((s) => (s.machine.context.toolCallCount = 5))).toBe('machine.context.toolCallCount');
    expect(edit((s) => (s.machine.context.step = 99))).toBe('machine.context.step');
  });

  it('anything that is not a snapshot is a RunSnapshotError, never a TypeError', () => {
    for (const value of [null, undefined, 'run', 42, [], {}, { format: 'agentchart.run' }, { machine: 5 }]) {
      expect(refusal(value).code).toBe('RUN_SNAPSHOT_INVALID');
    }
  });

  it('random edits of a snapshot end in a RunSnapshotError or resume a run that still waits; nothing executes', async () => {
    const base = await persistedWaitingRun();
    const paths: (string | number)[][] = [];
    const walk = (value: unknown, path: (string | number)[]) => {
      paths.push(path);
      if (value !== null && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) walk(inner, [...path, Array.isArray(value) ? Number(key) : key]);
    };
    walk(base, []);
    fc.assert(
      fc.property(fc.constantFrom(...paths.filter((path) => path.length > 0)), fc.jsonValue(), (path, replacement) => {
        const copy = structuredClone(base);
        let parent = copy;
        for (const key of path.slice(0, -1)) parent = parent[key];
        parent[path.at(-1)!] = replacement;
        const { agent, ledger } = bank();
        try {
          const resumed = agent.resume(copy);
          expect(resumed.pendingApprovals.length).toBeGreaterThan(0);
          resumed.abort();
        } catch (error) {
          expect(error).toBeInstanceOf(RunSnapshotError);
        }
        expect(ledger).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('signed snapshots (snapshotKey)', () => {
  it('a signed snapshot resumes, whatever the order of its keys', async () => {
    const snapshot = await persistedWaitingRun({ snapshotKey: KEY });
    expect(snapshot.signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    const reordered = JSON.parse(JSON.stringify(snapshot, Object.keys(snapshot).reverse()));
    const { agent, ledger } = bank({ snapshotKey: KEY });
    const resumed = agent.resume({ ...reordered, machine: snapshot.machine });
    resumed.approve('pay');
    await resumed.result;
    expect(ledger).toEqual(['pay Bob 250']);
  });

  it('an unsigned snapshot, or one signed with another key, is refused', async () => {
    const unsigned = await persistedWaitingRun();
    expect(refusal(unsigned, { snapshotKey: KEY }).message).toContain('is not signed');
    const other = await persistedWaitingRun({ snapshotKey: 'another-key-of-enough-length!!' });
    expect(refusal(other, { snapshotKey: KEY }).code).toBe('SNAPSHOT_TAMPERED');
  });

  it('a key shorter than 16 bytes is refused at createAgent', () => {
    expect(() => bank({ snapshotKey: 'short' })).toThrow(/snapshotKey must be a string or bytes of at least 16 bytes/);
  });
});

describe('persist() fences the original run', () => {
  it('after persist(), only the resumed copy decides: the call runs once', async () => {
    const { agent, ledger } = bank();
    const original = agent.run('Pay Bob 250');
    await waitForState(original, 'awaitingApproval');
    const snapshot = JSON.parse(JSON.stringify(original.persist()));
    expect(() => original.approve('pay')).toThrow(expect.objectContaining({ code: 'RUN_PERSISTED' }));
    expect(() => original.reject('pay')).toThrow(/decide its calls on the copy agent.resume\(snapshot\) returns/);
    const resumed = agent.resume(snapshot);
    resumed.approve('pay');
    await resumed.result;
    original.abort();
    expect((await original.result).stopReason).toBe('aborted');
    expect(ledger).toEqual(['search Bob', 'pay Bob 250']);
  });
});
