import { createAgent } from '@agentchart/actors';
import { type ToolRuleInput, defineTool, rules } from '@agentchart/core';
import { type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { z } from 'zod';
import { printEvents } from '../printEvents.js';

/** One tool-rule example: the rules, what the (scripted) model tries, and what must happen. */
export interface RuleScenario {
  /** What the example shows, printed first. */
  title: string;
  tools: Record<string, (args: Record<string, unknown>) => unknown>;
  rules: ToolRuleInput[];
  script: ScriptedTurn[];
  /** Decides approval requests (requiresApproval rules): approve the call or not. */
  approve?: (toolName: string) => boolean;
  /** What the example ends with: the tools that ran, in order, and the stop reason. */
  expected: { executed: string[]; stopReason: string };
}

const say = (text: string) => () => text;

/** One example per rule family; `pnpm example rule-<family>` runs one. */
export const ruleScenarios = {
  init: {
    title: 'init: only `login` may be called first; its `key` argument is prefilled, overriding the model.',
    tools: { login: ({ key }) => `logged in with ${String(key)}`, fetch: say('3 new orders') },
    rules: [rules.init('login', { args: { key: 'secret-from-config' } })],
    script: [
      { text: 'Fetching right away.', toolCalls: [{ name: 'fetch' }] },
      { toolCalls: [{ name: 'login', arguments: { key: 'guessed-key' } }] },
      { toolCalls: [{ name: 'fetch' }] },
      { text: 'You have 3 new orders.' },
    ],
    expected: { executed: ['login', 'fetch'], stopReason: 'completed' },
  },
  terminal: {
    title: 'terminal: `send_message` ends the run once it has executed; later calls of its batch are refused.',
    tools: { lookup: say('Lisbon: 24°C'), send_message: ({ text }) => `sent: ${String(text)}` },
    rules: [rules.terminal('send_message')],
    script: [
      { toolCalls: [{ name: 'lookup' }] },
      { toolCalls: [{ name: 'send_message', arguments: { text: 'It is 24°C in Lisbon.' } }, { name: 'lookup' }] },
    ],
    expected: { executed: ['lookup', 'send_message'], stopReason: 'terminal-tool' },
  },
  continue: {
    title: 'continue: the run may not end right after `draft`; the early answer gets a reminder.',
    tools: { draft: say('draft v1'), polish: say('draft v2, polished') },
    rules: [rules.continue('draft')],
    script: [
      { toolCalls: [{ name: 'draft' }] },
      { text: 'Here is the draft.' },
      { toolCalls: [{ name: 'polish' }] },
      { text: 'Here is the polished draft.' },
    ],
    expected: { executed: ['draft', 'polish'], stopReason: 'completed' },
  },
  child: {
    title: 'child: right after `search` only `read` or `summarize`; `read` gets a prefilled `limit`.',
    tools: { search: say('2 documents'), read: ({ limit }) => `read ${String(limit)} pages`, summarize: say('summary'), delete: say('deleted') },
    rules: [rules.child('search', ['read', 'summarize'], { args: { read: { limit: 5 } } })],
    script: [
      { toolCalls: [{ name: 'search' }] },
      { toolCalls: [{ name: 'delete' }] },
      { toolCalls: [{ name: 'read', arguments: { limit: 500 } }] },
      { text: 'Done reading.' },
    ],
    expected: { executed: ['search', 'read'], stopReason: 'completed' },
  },
  parent: {
    title: 'parent: `withdraw` is allowed only once `authenticate` has run (anywhere earlier in the run).',
    tools: { authenticate: say('ok'), balance: say('120 EUR'), withdraw: say('withdrew 20 EUR') },
    rules: [rules.parent('authenticate', ['withdraw'])],
    script: [
      { toolCalls: [{ name: 'withdraw' }] },
      { toolCalls: [{ name: 'authenticate' }] },
      { toolCalls: [{ name: 'balance' }] },
      { toolCalls: [{ name: 'withdraw' }] },
      { text: 'Withdrew 20 EUR.' },
    ],
    expected: { executed: ['authenticate', 'balance', 'withdraw'], stopReason: 'completed' },
  },
  conditional: {
    title: 'conditional: the output of `check` picks the next tool; the string "false" matches the key false.',
    tools: { check: say('false'), publish: say('published'), revise: say('revised') },
    rules: [
      rules.conditional('check', {
        cases: [
          [true, 'publish'],
          [false, 'revise'],
        ],
      }),
    ],
    script: [{ toolCalls: [{ name: 'check' }] }, { toolCalls: [{ name: 'publish' }] }, { toolCalls: [{ name: 'revise' }] }, { text: 'Revised.' }],
    expected: { executed: ['check', 'revise'], stopReason: 'completed' },
  },
  'max-count': {
    title: 'max count: `search` at most twice per run; the third call in the batch is refused.',
    tools: { search: ({ q }) => `results for ${String(q)}` },
    rules: [rules.maxCount('search', 2)],
    script: [{ toolCalls: ['a', 'b', 'c'].map((q) => ({ name: 'search', arguments: { q } })) }, { text: 'I searched twice.' }],
    expected: { executed: ['search', 'search'], stopReason: 'completed' },
  },
  'required-before-exit': {
    title: 'required before exit: no final answer (and no terminal tool) until `save` has run.',
    tools: { edit: say('edited'), save: say('saved'), finish: say('bye') },
    rules: [rules.requiredBeforeExit('save'), rules.terminal('finish')],
    script: [
      { toolCalls: [{ name: 'edit' }] },
      { text: 'All done!' },
      { toolCalls: [{ name: 'finish' }] },
      { toolCalls: [{ name: 'save' }] },
      { toolCalls: [{ name: 'finish' }] },
    ],
    expected: { executed: ['edit', 'save', 'finish'], stopReason: 'terminal-tool' },
  },
  'requires-approval': {
    title: 'requires approval: `transfer` waits for a person; the rest of its batch is refused meanwhile.',
    tools: { transfer: ({ amount }) => `transferred ${String(amount)} EUR`, balance: say('80 EUR') },
    rules: [rules.requiresApproval('transfer')],
    script: [
      { toolCalls: [{ name: 'transfer', arguments: { amount: 20 } }, { name: 'balance' }] },
      { toolCalls: [{ name: 'balance' }] },
      { text: 'Transferred 20 EUR; 80 EUR left.' },
    ],
    approve: () => true,
    expected: { executed: ['transfer', 'balance'], stopReason: 'completed' },
  },
} satisfies Record<string, RuleScenario>;

export type RuleScenarioName = keyof typeof ruleScenarios;

/**
 * Runs a scenario on the scripted model and returns what ran. With `print`,
 * the event log is written to stdout.
 *
 * @example
 * await runRuleScenario('child', { print: true });
 */
export async function runRuleScenario(
  name: RuleScenarioName,
  options: { print?: boolean } = {},
): Promise<{ executed: string[]; stopReason: string }> {
  const scenario: RuleScenario = ruleScenarios[name];
  const executed: string[] = [];
  const tools = Object.entries(scenario.tools).map(([toolName, execute]) =>
    defineTool({
      name: toolName,
      description: `The ${toolName} tool.`,
      parameters: z.looseObject({}),
      execute: (args) => {
        executed.push(toolName);
        return execute(args);
      },
    }),
  );
  const agent = createAgent({ name: 'assistant', model: scriptedModel(scenario.script), tools, toolRules: scenario.rules });
  if (options.print) console.log(`${scenario.title}\n`);
  const run = agent.run('Please help.');
  if (options.print) printEvents(run.events$);
  run.events$.subscribe((event) => {
    if (event.type === 'approval.requested') {
      const approved = scenario.approve?.(event.toolName) ?? false;
      setTimeout(() => (approved ? run.approve(event.id) : run.reject(event.id)), 0);
    }
  });
  const result = await run.result;
  return { executed, stopReason: result.stopReason };
}
