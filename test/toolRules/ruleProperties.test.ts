import {
  type CompiledToolRules,
  type RunEvent,
  type ToolRule,
  type ToolRuleState,
  ToolRulesError,
  allowedTools,
  callEvent,
  compileToolRules,
  defineTool,
} from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import fc from 'fast-check';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Ending, type ExecutedCall, ruleViolations } from './ruleOracle.js';

const TOOLS = ['a', 'b', 'c', 'd', 'e'];
const MACHINE_EPISODES = 10_000;
/** Episodes played against each random rule set (compiling is the expensive part). */
const EPISODES_PER_RULE_SET = 4;
const AGENT_EPISODES = 300;

const tool = fc.constantFrom(...TOOLS);
const someTools = fc.subarray(TOOLS, { minLength: 1 });
const output = fc.constantFrom<unknown>(true, false, 'true', 'FALSE', 42, '42', 'x', { x: 1 });

/** Any rule of the nine families over five tools. */
const ruleArb: fc.Arbitrary<ToolRule> = fc.oneof(
  fc.record({ type: fc.constant('init' as const), tool }),
  fc.record({ type: fc.constant('terminal' as const), tool }),
  fc.record({ type: fc.constant('continue' as const), tool }),
  fc.record({ type: fc.constant('child' as const), tool, children: someTools }),
  fc.record({ type: fc.constant('parent' as const), tool, children: someTools }),
  fc.record(
    {
      type: fc.constant('conditional' as const),
      tool,
      cases: fc.array(fc.record({ when: fc.constantFrom<string | number | boolean>(true, false, 42, 'x'), then: tool }), {
        minLength: 1,
        maxLength: 3,
      }),
      defaultChild: tool,
      requireMatch: fc.boolean(),
    },
    { requiredKeys: ['type', 'tool', 'cases'] },
  ),
  fc.record({ type: fc.constant('maxCount' as const), tool, limit: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ type: fc.constant('requiredBeforeExit' as const), tool }),
  fc.record({ type: fc.constant('requiresApproval' as const), tool }),
);
const ruleSetArb = fc.array(ruleArb, { maxLength: 6 });

/** What an adversarial model proposes: calls of any tool (unknown ones too), endings, outputs, decisions. */
const proposalArb = fc.record({
  kind: fc.constantFrom('call', 'call', 'call', 'end'),
  tool: fc.constantFrom(...TOOLS, 'zz'),
  output,
  approve: fc.boolean(),
});

type Proposal = { kind: string; tool: string; output: unknown; approve: boolean };

/** Compiles, or returns undefined for rule sets the compiler rightly rejects (deadlocks, conflicts). */
function tryCompile(rules: readonly ToolRule[]): CompiledToolRules | undefined {
  try {
    return compileToolRules(rules, TOOLS);
  } catch (error) {
    if (error instanceof ToolRulesError) return undefined;
    throw error;
  }
}

describe('property: no executed sequence violates a rule', () => {
  it(`the rule machine admits only legal calls (${MACHINE_EPISODES} adversarial episodes)`, () => {
    let episode = 0;
    const episodes = fc.array(fc.array(proposalArb, { maxLength: 14 }), {
      minLength: EPISODES_PER_RULE_SET,
      maxLength: EPISODES_PER_RULE_SET,
    });
    fc.assert(
      fc.property(ruleSetArb, episodes, (rules, proposalLists) => {
        const compiled = tryCompile(rules);
        fc.pre(compiled !== undefined);
        if (compiled === undefined) return;
        for (const proposals of proposalLists) playEpisode(compiled, proposals, episode++ % 20 === 0);
      }),
      { numRuns: MACHINE_EPISODES / EPISODES_PER_RULE_SET, seed: 4, maxSkipsPerRun: 100 },
    );
    expect(episode).toBe(MACHINE_EPISODES);
  }, 60_000);

  /** One episode: the adversary's proposals against the rule machine; every executed call is checked by the oracle. */
  function playEpisode(compiled: CompiledToolRules, proposals: readonly Proposal[], checkAgreement: boolean): void {
    const actor = createActor(compiled.machine).start();
    const executed: ExecutedCall[] = [];
    let ending: Ending = 'cut-short';
    for (const proposal of proposals) {
      const snapshot = actor.getSnapshot();
      if (snapshot.status !== 'active') break;
      const state = snapshot.context as ToolRuleState;
      if (checkAgreement) {
        expect(TOOLS.filter((name) => snapshot.can(callEvent(name)))).toEqual(allowedTools(compiled.program, state));
      }
      if (state.awaitingApproval !== null) {
        actor.send({ type: proposal.approve ? 'approve' : 'reject' });
        if (proposal.approve) executed.push({ tool: state.awaitingApproval, approved: true });
      } else if (state.branch?.status === 'pending') {
        actor.send({ type: 'output', value: proposal.output });
        (executed.at(-1) as ExecutedCall).output = proposal.output;
      } else if (proposal.kind === 'end') {
        if (snapshot.can({ type: 'end' })) {
          actor.send({ type: 'end' });
          ending = 'final-answer';
        }
      } else if (TOOLS.includes(proposal.tool) && snapshot.can(callEvent(proposal.tool))) {
        actor.send(callEvent(proposal.tool));
        if (!compiled.program.requiresApproval.has(proposal.tool)) executed.push({ tool: proposal.tool });
      }
    }
    const final = actor.getSnapshot();
    if (final.status === 'done' && ending !== 'final-answer') {
      ending = (final.context as ToolRuleState).phase === 'failed' ? 'failed' : 'terminal-tool';
    }
    expect(ruleViolations(compiled.rules, executed, ending)).toEqual([]);
  }

  /** One episode through a full agent: a scripted adversary, random outputs and approval decisions. */
  async function playAgentEpisode(
    rules: ToolRule[],
    turns: readonly { text: string; calls: string[] }[],
    outputs: readonly unknown[],
    decisions: readonly boolean[],
  ): Promise<void> {
    const compiled = tryCompile(rules);
    fc.pre(compiled !== undefined);
    const executed: (ExecutedCall & { callId: string })[] = [];
    const approved = new Set<string>();
    const tools = TOOLS.map((name) =>
      defineTool({
        name,
        description: name,
        parameters: z.object({}),
        execute: (_args, ctx) => {
          const value = outputs[executed.length % outputs.length];
          executed.push({ tool: name, output: value, callId: ctx.callId });
          return value;
        },
      }),
    );
    const model = scriptedModel((_request, index) => {
      const turn = turns[index % turns.length] as { text: string; calls: string[] };
      return { text: turn.text, toolCalls: turn.calls.map((name) => ({ name })) };
    });
    const agent = createAgent({ name: 'adversary', model, tools, toolRules: rules, maxSteps: 8 });
    const run = agent.run('Go');
    let decision = 0;
    run.events$.subscribe((event: RunEvent) => {
      if (event.type === 'approval.requested') {
        const approve = decisions[decision++ % decisions.length] as boolean;
        setTimeout(() => (approve ? run.approve(event.id) : run.reject(event.id)), 0);
      }
      if (event.type === 'approval.decided' && event.approved) approved.add(event.id);
    });
    const result = await run.result;
    const ending: Ending =
      result.stopReason === 'completed'
        ? 'final-answer'
        : result.stopReason === 'terminal-tool'
          ? 'terminal-tool'
          : result.stopReason === 'error'
            ? 'failed'
            : 'cut-short';
    const calls = executed.map(({ callId, ...call }) => ({ ...call, approved: approved.has(callId) }));
    expect(ruleViolations(compiled?.rules ?? [], calls, ending)).toEqual([]);
  }

  it(`an agent with an adversarial model executes only legal calls (${AGENT_EPISODES} episodes)`, async () => {
    const turnArb = fc.record({
      text: fc.constantFrom('', 'done'),
      calls: fc.array(fc.constantFrom(...TOOLS, 'zz'), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(
        ruleSetArb,
        fc.array(turnArb, { minLength: 1, maxLength: 8 }),
        fc.array(output, { minLength: 1 }),
        fc.array(fc.boolean(), { minLength: 1 }),
        (rules, turns, outputs, decisions) => playAgentEpisode(rules, turns, outputs, decisions),
      ),
      { numRuns: AGENT_EPISODES, seed: 5, maxSkipsPerRun: 100 },
    );
  }, 60_000);
});
