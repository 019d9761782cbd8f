import { ToolRulesError, compileToolRules, parseToolRules, rules } from '@agentchart/core';
import { describe, expect, it } from 'vitest';

/** Letta's JSON for all nine rule types, as its API returns them (nulls and prompt_template included). */
const LETTA_RULES = [
  { type: 'run_first', tool_name: 'search', prompt_template: null, args: { q: 'start' } },
  { type: 'exit_loop', tool_name: 'send_message', prompt_template: null },
  { type: 'continue_loop', tool_name: 'read' },
  {
    type: 'constrain_child_tools',
    tool_name: 'search',
    children: ['read', 'check'],
    child_arg_nodes: [
      { name: 'read', args: { page: 1 } },
      { name: 'check', args: null },
    ],
  },
  { type: 'parent_last_tool', tool_name: 'search', children: ['check'] },
  {
    type: 'conditional',
    tool_name: 'check',
    default_child: 'read',
    child_output_mapping: { true: 'send_message', '42': 'read' },
    require_output_mapping: false,
  },
  { type: 'max_count_per_step', tool_name: 'search', max_count_limit: 3 },
  { type: 'required_before_exit', tool_name: 'search', prompt_template: 'Call {{ tool_name }} first.' },
  { type: 'requires_approval', tool_name: 'send_message' },
];

describe('importing Letta JSON', () => {
  it('accepts all nine rule types as is and converts them to agentchart rules', () => {
    expect(parseToolRules(LETTA_RULES)).toEqual([
      rules.init('search', { args: { q: 'start' } }),
      rules.terminal('send_message'),
      rules.continue('read'),
      rules.child('search', ['read', 'check'], { args: { read: { page: 1 } } }),
      rules.parent('search', ['check']),
      rules.conditional('check', {
        cases: [
          ['42', 'read'],
          ['true', 'send_message'],
        ],
        default: 'read',
      }),
      rules.maxCount('search', 3),
      rules.requiredBeforeExit('search'),
      rules.requiresApproval('send_message'),
    ]);
  });

  it('compiles a Letta rule set mixed with builder rules', () => {
    const compiled = compileToolRules([...LETTA_RULES, rules.maxCount('check', 5)], ['search', 'read', 'check', 'send_message']);
    expect(compiled.rules).toHaveLength(10);
    expect(compiled.program.initTools).toEqual(['search']);
  });

  it('keeps mapping keys as strings, in the order JSON objects keep them (integer-like keys first)', () => {
    const [rule] = parseToolRules([LETTA_RULES[5]]);
    expect(rule).toMatchObject({
      cases: [
        { when: '42', then: 'read' },
        { when: 'true', then: 'send_message' },
      ],
    });
  });

  it('rejects a malformed rule with the index and what is wrong', () => {
    const attempt = () => parseToolRules([LETTA_RULES[0], { type: 'max_count_per_step', tool_name: 'search' }]);
    expect(attempt).toThrow(ToolRulesError);
    expect(attempt).toThrow(/Tool rule 1 .* is not valid/);
    try {
      attempt();
    } catch (error) {
      expect((error as ToolRulesError).code).toBe('TOOL_RULES_INVALID');
      expect((error as ToolRulesError).details.index).toBe(1);
    }
  });

  it('refuses a conditional rule with an empty mapping, in either form, saying what to write instead', () => {
    const letta = { type: 'conditional', tool_name: 'check', child_output_mapping: {}, require_output_mapping: true };
    const attempt = () => compileToolRules([rules.init('check'), letta], ['check', 'publish']);
    expect(attempt).toThrow(ToolRulesError);
    expect(attempt).toThrow(
      `Tool rule 1 (${JSON.stringify(letta)}) is a conditional rule on "check" with no cases, so its output could pick no tool ` +
        'and every call of it would fail the run (requireMatch). ' +
        `Give it at least one case: rules.conditional('check', { cases: [['yes', 'publish']] }) (Letta: "child_output_mapping": { "yes": "publish" }), ` +
        "or use rules.child('check', ['publish']) when the next tool does not depend on its output.",
    );
    try {
      attempt();
    } catch (error) {
      expect((error as ToolRulesError).code).toBe('TOOL_RULES_INVALID');
      expect((error as ToolRulesError).details.index).toBe(1);
    }
    const builder = () => parseToolRules([rules.conditional('check', { cases: [], default: 'publish' })]);
    expect(builder).toThrow(
      /^Tool rule 0 .* is a conditional rule on "check" with no cases, so its output could pick no tool\. Give it at least one case/,
    );
    expect(() => parseToolRules([rules.conditional('check', { cases: {} })])).toThrow(ToolRulesError);
  });

  it('rejects an unknown rule type', () => {
    expect(() => parseToolRules([{ type: 'teleport', tool_name: 'x' }])).toThrow(ToolRulesError);
  });
});
