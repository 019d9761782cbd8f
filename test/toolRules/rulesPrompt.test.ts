import { applyCall, compileToolRules, initialToolRuleState, renderToolRulesPrompt, rules } from '@agentchart/core';
import { describe, expect, it } from 'vitest';

describe('the rules section of the system prompt', () => {
  const compiled = compileToolRules(
    [
      rules.init('search'),
      rules.child('search', ['read', 'summarize']),
      rules.conditional('check', { cases: [[true, 'publish']], default: 'read' }),
      rules.maxCount('search', 2),
      rules.parent('read', ['check']),
      rules.requiredBeforeExit('read'),
      rules.continue('summarize'),
      rules.requiresApproval('publish'),
      rules.terminal('publish'),
    ],
    ['search', 'read', 'summarize', 'check', 'publish'],
  );
  const { program } = compiled;
  const lines = [
    'Tool rules:',
    '- Call search first.',
    '- After search, call one of: read, summarize.',
    '- The result of check picks the next tool: true → publish, otherwise read.',
    '- Call search at most 2 time(s).',
    '- Call read before any of: check.',
    '- Call read before finishing.',
    '- After summarize, keep working: do not finish right after it.',
    "- Calls of publish need a person's approval.",
    '- Calling publish ends the run.',
  ];

  it('lists every rule and says what is demanded at the start', () => {
    expect(renderToolRulesPrompt(program, initialToolRuleState())).toBe(
      [...lines, 'Now: the run must start with a call of one of: search; you must call search.'].join('\n'),
    );
  });

  it('is refreshed as the rules move', () => {
    const afterSearch = applyCall(program, initialToolRuleState(), 'search');
    expect(renderToolRulesPrompt(program, afterSearch).split('\n').at(-1)).toBe(
      'Now: after search, one of read, summarize must be called; you must call one of: read, summarize.',
    );
    const afterRead = applyCall(program, afterSearch, 'read');
    expect(renderToolRulesPrompt(program, afterRead).split('\n').at(-1)).toBe(
      'Now: you may call search, read, summarize, check, publish, or answer.',
    );
  });
});
