import { type ToolRuleInput, ToolRulesError, compileToolRules, formatRulePath, rules } from '@agentchart/core';
import { describe, expect, it } from 'vitest';

const TOOLS = ['a', 'b', 'c', 'd'];

function compileError(input: readonly ToolRuleInput[], tools = TOOLS): ToolRulesError {
  try {
    compileToolRules(input, tools);
  } catch (error) {
    if (error instanceof ToolRulesError) return error;
    throw error;
  }
  throw new Error('expected compileToolRules to throw');
}

describe('static analysis at compile time', () => {
  it('rejects rules that name unknown tools, listing them', () => {
    const error = compileError([rules.child('a', ['b', 'zz']), rules.terminal('yy')]);
    expect(error.code).toBe('TOOL_RULES_UNKNOWN_TOOL');
    expect(error.details.unknownTools).toEqual(['zz', 'yy']);
    expect(error.message).toContain('"zz", "yy"');
  });

  it('rejects a deadlock with the shortest call path that reaches it', () => {
    const error = compileError([rules.child('a', ['b']), rules.child('b', ['c']), rules.maxCount('c', 1), rules.child('c', ['c'])]);
    expect(error.code).toBe('TOOL_RULES_DEADLOCK');
    expect(error.details.path).toEqual([{ tool: 'c' }]);
    expect(error.message).toContain('after c no tool may be called and the run may not end');
  });

  it('finds a deadlock that needs memory: the only way on is used up', () => {
    const error = compileError([rules.init('a'), rules.child('a', ['b']), rules.maxCount('b', 1), rules.child('b', ['a'])]);
    expect(error.details.formattedPath).toBe('a → b → a');
    expect(error.details.state).toMatchObject({ last: 'a', counts: { b: 1 } });
  });

  it('warns when no reachable state lets the run end', () => {
    const compiled = compileToolRules([rules.init('a'), rules.child('a', ['a', 'b']), rules.child('b', ['a'])], TOOLS);
    expect(compiled.warnings.map((warning) => warning.code)).toContain('RUN_CAN_NEVER_END');
  });

  it('reports the path through conditional branches', () => {
    const error = compileError([
      rules.conditional('a', {
        cases: [
          [true, 'b'],
          [false, 'c'],
        ],
      }),
      rules.maxCount('c', 1),
      rules.child('c', ['c']),
    ]);
    expect(formatRulePath(error.details.path as never)).toBe('c');
    const viaBranch = compileError([
      rules.init('a'),
      rules.conditional('a', {
        cases: [
          [true, 'b'],
          [false, 'c'],
        ],
      }),
      rules.maxCount('c', 1),
      rules.child('c', ['c']),
    ]);
    expect(viaBranch.details.formattedPath).toBe('a (matches false) → c');
  });

  it('rejects contradictions on one tool', () => {
    expect(compileError([rules.terminal('a'), rules.continue('a')]).code).toBe('TOOL_RULES_CONFLICT');
    expect(compileError([rules.conditional('a', { cases: { x: 'b' } }), rules.conditional('a', { cases: { y: 'c' } })]).code).toBe(
      'TOOL_RULES_CONFLICT',
    );
    expect(compileError([rules.child('a', ['b'], { args: { c: { x: 1 } } })]).code).toBe('TOOL_RULES_CONFLICT');
  });

  it('warns about tools that can never run and terminal tools that can never be reached', () => {
    const compiled = compileToolRules(
      [rules.init('a'), rules.child('a', ['b']), rules.parent('c', ['d']), rules.parent('d', ['c']), rules.terminal('d')],
      TOOLS,
    );
    expect(compiled.warnings).toEqual([
      { code: 'TOOL_NEVER_RUNNABLE', tool: 'c', message: 'Tool "c" can never be called under these rules.' },
      { code: 'TERMINAL_TOOL_UNREACHABLE', tool: 'd', message: 'Terminal tool "d" can never be called, so it can never end a run.' },
    ]);
    expect(compiled.analysis.complete).toBe(true);
  });

  it('says so when the state limit stops the exploration', () => {
    const tools = ['a', 'b', 'c', 'd', 'e', 'f'];
    const compiled = compileToolRules(
      tools.map((tool) => rules.maxCount(tool, 3)),
      tools,
      { maxAnalysisStates: 50 },
    );
    expect(compiled.analysis).toMatchObject({ complete: false, states: 50 });
    expect(compiled.warnings.map((warning) => warning.code)).toEqual(['TOOL_RULES_ANALYSIS_INCOMPLETE']);
  });
});
