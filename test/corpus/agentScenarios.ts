import { type Agent, type AgentOptions, type AgentRun, type ToolSource, createAgent } from '@agentchart/actors';
import { type AnyTool, type RunEvent, defineTool, rules } from '@agentchart/core';
import { type ScriptedResponder, type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { z } from 'zod';
import type { Scenario, ScenarioGroup, Variant } from './corpusKit.js';

/**
 * Agent runs of the corpus: one scenario per behaviour of the agent loop
 * (replies, batches, approvals, each tool-rule family, each limit, malformed
 * replies, changing tool sources, an abort at each event type). Each returns
 * its events, result and whatever it persisted.
 */

/** A tool `name({ x })` that answers `<name>(<x>)`; `fail` makes it throw, `approval` asks a person first. */
export function tool(name: string, options: { fail?: boolean; approval?: 'always'; value?: (x: string) => unknown } = {}): AnyTool {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: z.object({ x: z.string() }),
    ...(options.approval === undefined ? {} : { approval: options.approval }),
    execute: async ({ x }, ctx) => {
      if (options.fail) throw new Error(`${name} failed on ${x}`);
      ctx.state.set(`last_${name}`, x);
      return options.value === undefined ? `${name}(${x})` : options.value(x);
    },
  });
}

const call = (name: string, x = 'a', id?: string) => ({ name, arguments: { x }, ...(id === undefined ? {} : { id }) });

/** A model that plays `turns` in order, then answers `done`. */
const script =
  (turns: readonly ScriptedTurn[]): ScriptedResponder =>
  (_request, index) =>
    turns[index] ?? { text: 'done', usage: { inputTokens: 2, outputTokens: 1 } };

function agentOf(turns: readonly ScriptedTurn[] | ScriptedResponder, options: Partial<AgentOptions> = {}): Agent {
  return createAgent({
    name: 'worker',
    instructions: 'You work.',
    model: scriptedModel(typeof turns === 'function' ? turns : script(turns)),
    tools: [tool('alpha'), tool('beta'), tool('gamma')],
    ...options,
  });
}

/** Runs `agent` on `input`, deciding every approval with `decide`; returns the events and result. */
export async function runAgent(
  agent: Agent,
  input: string,
  variant: Variant,
  options: { decide?: (id: string, run: AgentRun) => void; onEvent?: (event: RunEvent, run: AgentRun) => void; extra?: Record<string, unknown> } = {},
) {
  const run = variant.track(agent.run(input, { ...variant.runOptions(), ...options.extra }));
  const events: RunEvent[] = [];
  const refusedDecisions: unknown[] = [];
  run.events$.subscribe((event) => {
    events.push(event);
    options.onEvent?.(event, run);
    if (event.type === 'approval.requested' && options.decide !== undefined) {
      const decide = options.decide;
      queueMicrotask(() => {
        try {
          decide(event.id, run);
        } catch (error) {
          refusedDecisions.push(error);
        }
      });
    }
  });
  const result = await run.result;
  return { events, result, state: run.state.values(), ...(refusedDecisions.length === 0 ? {} : { refusedDecisions }) };
}

const approveAll = (id: string, run: AgentRun) => run.approve(id);

/** A source whose tool list changes when its `changeTo` is called, as an MCP server's notification would say. */
function changingSource(initial: AnyTool[]) {
  let tools = initial;
  const listeners = new Set<() => void | Promise<void>>();
  const source: ToolSource & { changeTo(next: AnyTool[]): Promise<unknown> } = {
    name: 'memory',
    loadTools: async () => tools,
    onToolsChanged: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: async () => {},
    changeTo: (next) => {
      tools = next;
      return Promise.all([...listeners].map((listener) => listener()));
    },
  };
  return source;
}

const usage = { inputTokens: 10, outputTokens: 5 };

const scenarios: Record<string, Scenario> = {
  textOnly: (v) => runAgent(agentOf([{ text: 'Hello there, friend.', reasoning: 'Greet.', chunks: 5, usage }]), 'Hi', v),
  oneToolCall: (v) =>
    runAgent(
      agentOf([
        { toolCalls: [call('alpha')], usage },
        { text: 'alpha said a', usage },
      ]),
      'Use alpha',
      v,
    ),
  parallelCalls: (v) =>
    runAgent(
      agentOf([
        { toolCalls: [call('alpha', '1'), call('beta', '2'), call('gamma', '3')], usage },
        { text: 'three', usage },
      ]),
      'All three',
      v,
    ),
  severalSteps: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('alpha', '1')] }, { toolCalls: [call('beta', '2'), call('alpha', '3')] }, { toolCalls: [call('gamma', '4')] }]),
      'Keep going',
      v,
    ),
  unknownTool: (v) => runAgent(agentOf([{ toolCalls: [call('nope'), call('alpha')] }]), 'Call a missing tool', v),
  failingTool: (v) => runAgent(agentOf([{ toolCalls: [call('broken')] }], { tools: [tool('broken', { fail: true })] }), 'Break', v),
  toolValue: (v) =>
    runAgent(agentOf([{ toolCalls: [call('json')] }], { tools: [tool('json', { value: (x) => ({ echoed: x, n: 2 }) })] }), 'Structured', v),
  modelError: (v) => runAgent(agentOf([{ text: 'partial', error: 'the model broke' }]), 'Fail', v),
  malformedArguments: (v) =>
    runAgent(agentOf([{ toolCalls: [{ name: 'alpha', malformedArguments: '{"x": ' }] }, { toolCalls: [call('alpha')] }]), 'Malformed', v),
  forcedCallMissing: (v) =>
    runAgent(
      agentOf([{ text: 'I will not call.' }, { toolCalls: [call('alpha')] }, { text: 'ok' }], { toolChoice: 'required', maxSteps: 3 }),
      'Forced',
      v,
    ),
  approvalApproved: (v) =>
    runAgent(agentOf([{ toolCalls: [call('pay', 'Bob')] }], { tools: [tool('pay', { approval: 'always' })] }), 'Pay Bob', v, { decide: approveAll }),
  approvalRejected: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('pay', 'Bob'), call('alpha')] }], { tools: [tool('pay', { approval: 'always' }), tool('alpha')] }),
      'Pay',
      v,
      {
        decide: (id, run) => run.reject(id, 'not today'),
      },
    ),
  approvalMixed: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('pay', 'Ann', 'p1'), call('pay', 'Bob', 'p2'), call('alpha')] }], {
        tools: [tool('pay', { approval: 'always' }), tool('alpha')],
      }),
      'Pay both',
      v,
      { decide: (id, run) => (id === 'p1' ? run.approve(id) : run.reject(id)) },
    ),
  approvalPersistedAndResumed: async (v) => {
    // The model answers from the transcript: a fresh copy in the resuming "process" goes on where the first stopped.
    const reply: ScriptedResponder = (request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'paid' } : { toolCalls: [call('pay', 'Bob', 'p1')] };
    const make = () => agentOf(reply, { tools: [tool('pay', { approval: 'always' })] });
    const first = v.track(make().run('Pay Bob', v.runOptions()));
    const events: RunEvent[] = [];
    first.events$.subscribe((event) => events.push(event));
    const snapshot = await new Promise<unknown>((resolve, reject) =>
      first.events$.subscribe((event) => {
        if (event.type === 'approval.requested') {
          try {
            resolve(first.persist());
          } catch (error) {
            reject(error);
          }
        }
      }),
    );
    let fenced: unknown;
    try {
      first.approve('p1');
    } catch (error) {
      fenced = error;
    }
    first.abort();
    const aborted = await first.result;
    const resumed = v.track(make().resume(JSON.parse(JSON.stringify(snapshot)), v.resumeOptions()));
    const resumedEvents: RunEvent[] = [];
    resumed.events$.subscribe((event) => resumedEvents.push(event));
    const pending = resumed.pendingApprovals;
    await new Promise((resolve) => setTimeout(resolve, 0));
    resumed.approve('p1');
    const result = await resumed.result;
    return { events, snapshot, fenced, aborted, pending, resumedEvents, result };
  },
  ruleInit: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('beta')] }, { toolCalls: [call('alpha')] }, { toolCalls: [call('beta')] }], { toolRules: [rules.init('alpha')] }),
      'Init',
      v,
    ),
  ruleInitArgs: (v) =>
    runAgent(agentOf([{ toolCalls: [call('alpha', 'model')] }], { toolRules: [rules.init('alpha', { args: { x: 'forced' } })] }), 'Init args', v),
  ruleTerminal: (v) =>
    runAgent(agentOf([{ toolCalls: [call('alpha')] }, { toolCalls: [call('beta')] }], { toolRules: [rules.terminal('beta')] }), 'Terminal', v),
  ruleContinue: (v) => runAgent(agentOf([{ toolCalls: [call('alpha')] }, { text: 'next' }], { toolRules: [rules.continue('alpha')] }), 'Continue', v),
  ruleChild: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('alpha')] }, { toolCalls: [call('gamma')] }, { toolCalls: [call('beta')] }], {
        toolRules: [rules.child('alpha', ['beta'])],
      }),
      'Child',
      v,
    ),
  ruleChildArgs: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('alpha')] }, { toolCalls: [call('beta', 'model')] }], {
        toolRules: [rules.child('alpha', ['beta'], { args: { beta: { x: 'set' } } })],
      }),
      'Child args',
      v,
    ),
  ruleParent: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('beta')] }, { toolCalls: [call('alpha')] }, { toolCalls: [call('beta')] }], {
        toolRules: [rules.parent('alpha', ['beta'])],
      }),
      'Parent',
      v,
    ),
  ruleConditional: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('check', 'yes')] }, { toolCalls: [call('gamma')] }, { toolCalls: [call('beta')] }], {
        tools: [tool('check', { value: (x) => x }), tool('alpha'), tool('beta'), tool('gamma')],
        toolRules: [rules.conditional('check', { cases: { yes: 'beta', no: 'alpha' }, default: 'gamma' })],
      }),
      'Conditional',
      v,
    ),
  ruleConditionalRequireMatch: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('check', 'maybe')] }, { toolCalls: [call('alpha')] }], {
        tools: [tool('check', { value: (x) => x }), tool('alpha'), tool('beta')],
        toolRules: [rules.conditional('check', { cases: { yes: 'beta', no: 'alpha' }, requireMatch: true })],
      }),
      'Conditional strict',
      v,
    ),
  ruleMaxCount: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('alpha', '1')] }, { toolCalls: [call('alpha', '2')] }, { toolCalls: [call('alpha', '3')] }], {
        toolRules: [rules.maxCount('alpha', 2)],
      }),
      'Max count',
      v,
    ),
  ruleRequiredBeforeExit: (v) =>
    runAgent(
      agentOf([{ text: 'leaving early' }, { toolCalls: [call('gamma')] }, { text: 'now done' }], { toolRules: [rules.requiredBeforeExit('gamma')] }),
      'Required',
      v,
    ),
  ruleRequiresApproval: (v) =>
    runAgent(agentOf([{ toolCalls: [call('beta')] }], { toolRules: [rules.requiresApproval('beta')] }), 'Approval rule', v, { decide: approveAll }),
  rulesTogether: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('alpha'), call('beta')] }, { toolCalls: [call('gamma')] }, { text: 'end' }], {
        toolRules: [rules.init('alpha'), rules.child('alpha', ['gamma']), rules.terminal('gamma'), rules.maxCount('beta', 1)],
      }),
      'Together',
      v,
    ),
  limitMaxSteps: (v) =>
    runAgent(
      agentOf((_request, index) => ({ toolCalls: [call('alpha', String(index))] }), { maxSteps: 3 }),
      'Forever',
      v,
    ),
  limitMaxToolCalls: (v) =>
    runAgent(
      agentOf((_request, index) => ({ toolCalls: [call('alpha', String(index)), call('beta', String(index))] }), { maxToolCalls: 3 }),
      'Many calls',
      v,
    ),
  limitMaxConsecutiveErrors: (v) =>
    runAgent(
      agentOf((_request, index) => ({ toolCalls: [call('broken', String(index))] }), {
        tools: [tool('broken', { fail: true })],
        maxConsecutiveErrors: 2,
      }),
      'Errors',
      v,
    ),
  limitMaxTokens: (v) =>
    runAgent(
      agentOf((_request, index) => ({ toolCalls: [call('alpha', String(index))], usage: { inputTokens: 40, outputTokens: 20 } }), { maxTokens: 150 }),
      'Tokens',
      v,
    ),
  sharedStateInput: (v) =>
    runAgent(
      agentOf([{ toolCalls: [call('alpha', 'written')] }, { text: 'state kept' }], {
        stateSchema: z.object({ last_alpha: z.string().optional(), seed: z.number() }),
      }),
      'State',
      v,
      { extra: { state: { seed: 7 } } },
    ),
  toolSourceChanges: async (v) => {
    const source = changingSource([tool('first')]);
    const agent = createAgent({
      name: 'sourced',
      model: scriptedModel(
        script([{ toolCalls: [call('first')] }, { toolCalls: [call('second')] }, { toolCalls: [call('first')] }, { text: 'saw the change' }]),
      ),
      toolSources: [source],
    });
    return runAgent(agent, 'Sources', v, {
      onEvent: (event) => {
        if (event.type === 'tool.result' && event.toolName === 'first') void source.changeTo([tool('second')]);
      },
    });
  },
};

/** The run every `abortAt:<type>` scenario aborts: text, reasoning, a batch with an approval, a malformed call, state changes. */
const ABORT_BASE: readonly ScriptedTurn[] = [
  { text: 'Thinking aloud.', reasoning: 'Plan.', chunks: 4, toolCalls: [call('alpha', '1'), call('pay', '2', 'p1')], usage },
  { toolCalls: [call('nope'), { name: 'alpha', malformedArguments: '{' }], usage },
  { text: 'finished', usage },
];

const abortAgent = () =>
  agentOf(ABORT_BASE, { tools: [tool('alpha'), tool('pay', { approval: 'always' })], toolRules: [rules.maxCount('alpha', 3)] });

/** One scenario per event type of a run: the run is aborted (synchronously, in the listener) the first time it emits that type. */
for (const type of [
  'run.started',
  'model.request',
  'reasoning.delta',
  'text.delta',
  'usage',
  'model.response',
  'model.malformed',
  'message',
  'tool.call',
  'approval.requested',
  'approval.decided',
  'tool.result',
  'tool.refused',
  'state.changed',
  'run.finished',
]) {
  scenarios[`abortAt:${type}`] = async (v) => {
    let aborted = false;
    const outcome = await runAgent(abortAgent(), 'Abort me', v, {
      decide: approveAll,
      onEvent: (event, run) => {
        if (!aborted && event.type === type) {
          aborted = true;
          run.abort();
        }
      },
    });
    return { abortedAt: aborted ? type : 'never emitted', ...outcome };
  };
}

export const agentScenarios: ScenarioGroup = { variants: ['plain', 'inspected', 'stored'], scenarios };
