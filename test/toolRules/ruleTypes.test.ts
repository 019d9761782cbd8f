import {
  type CompiledToolRules,
  type ToolRuleInput,
  type ToolRuleState,
  allowedTools,
  applyCall,
  applyOutput,
  approveCall,
  callEvent,
  canEnd,
  compileToolRules,
  explainBlockedCall,
  explainBlockedEnd,
  initialToolRuleState,
  matchesConditionalKey,
  prefilledArgs,
  rejectCall,
  rules,
} from '@agentchart/core';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';

const TOOLS = ['search', 'read', 'summarize', 'save', 'send'];

/** Compiles `input` over TOOLS and walks `calls` (a `tool=output` entry also feeds the output). */
function walk(input: readonly ToolRuleInput[], calls: readonly string[] = [], tools = TOOLS) {
  const compiled = compileToolRules(input, tools);
  let state = initialToolRuleState();
  for (const entry of calls) {
    const [tool, output] = entry.split('=') as [string, string | undefined];
    expect(explainBlockedCall(compiled.program, state, tool)).toBeNull();
    state = applyCall(compiled.program, state, tool);
    if (output !== undefined) state = applyOutput(compiled.program, state, output).state;
  }
  return { compiled, state, allowed: allowedTools(compiled.program, state), canEnd: canEnd(compiled.program, state) };
}

describe('each rule type', () => {
  it('without rules every tool is allowed and the run may end', () => {
    expect(walk([], ['search', 'search'])).toMatchObject({ allowed: TOOLS, canEnd: true });
  });

  it('init: only init tools before the first call, then any tool; the run may not end before it', () => {
    expect(walk([rules.init('search'), rules.init('read')])).toMatchObject({ allowed: ['search', 'read'], canEnd: false });
    expect(walk([rules.init('search')], ['search'])).toMatchObject({ allowed: TOOLS, canEnd: true });
    const { compiled, state } = walk([rules.init('search')]);
    expect(explainBlockedCall(compiled.program, state, 'read')).toEqual({
      rule: 'init',
      reason: 'the first tool call must be one of: search',
    });
  });

  it('terminal: calling it ends the rules; nothing is allowed after it', () => {
    const { state, allowed, compiled } = walk([rules.terminal('send')], ['search', 'send']);
    expect(state.phase).toBe('done');
    expect(allowed).toEqual([]);
    expect(explainBlockedCall(compiled.program, state, 'search')?.rule).toBe('terminal');
  });

  it('continue: the run may not end right after it, but may after another tool', () => {
    expect(walk([rules.continue('search')], ['search'])).toMatchObject({ allowed: TOOLS, canEnd: false });
    expect(walk([rules.continue('search')], ['search', 'read']).canEnd).toBe(true);
  });

  it('child: right after the tool only its children, and one of them must be called', () => {
    const { allowed, canEnd: mayEnd, compiled, state } = walk([rules.child('search', ['read', 'summarize'])], ['search']);
    expect(allowed).toEqual(['read', 'summarize']);
    expect(mayEnd).toBe(false);
    expect(explainBlockedCall(compiled.program, state, 'save')).toEqual({
      rule: 'child',
      reason: 'after search only read, summarize may be called',
    });
    expect(walk([rules.child('search', ['read'])], ['search', 'read']).allowed).toEqual(TOOLS);
  });

  it('parent: children are allowed only once the parent has been called anywhere earlier in the run', () => {
    expect(walk([rules.parent('search', ['read'])]).allowed).toEqual(['search', 'summarize', 'save', 'send']);
    expect(walk([rules.parent('search', ['read'])], ['search', 'save', 'summarize']).allowed).toEqual(TOOLS);
  });

  it('conditional: the output picks the next tool by the first matching case, then the default, then any tool', () => {
    const rule = rules.conditional('search', {
      cases: [
        [true, 'read'],
        [42, 'summarize'],
        ['x', 'save'],
      ],
      default: 'send',
    });
    expect(walk([rule], ['search=TRUE'])).toMatchObject({ allowed: ['read'], canEnd: false });
    expect(walk([rule], ['search=42'])).toMatchObject({ allowed: ['summarize'] });
    expect(walk([rule], ['search=x'])).toMatchObject({ allowed: ['save'] });
    expect(walk([rule], ['search=nothing'])).toMatchObject({ allowed: ['send'] });
    const open = rules.conditional('search', { cases: { yes: 'read' } });
    expect(walk([open], ['search=no'])).toMatchObject({ allowed: TOOLS, canEnd: true });
  });

  it('conditional: nothing is allowed while the output is pending; requireMatch fails on no match', () => {
    const compiled = compileToolRules([rules.conditional('search', { cases: { yes: 'read' }, requireMatch: true })], TOOLS);
    const pending = applyCall(compiled.program, initialToolRuleState(), 'search');
    expect(allowedTools(compiled.program, pending)).toEqual([]);
    expect(explainBlockedEnd(compiled.program, pending)?.rule).toBe('conditional');
    const failed = applyOutput(compiled.program, pending, 'maybe');
    expect(failed.match).toEqual({ kind: 'unmatched' });
    expect(failed.state.phase).toBe('failed');
  });

  it('conditional keys are typed: a boolean or number key matches its string form', () => {
    expect(matchesConditionalKey('true', true)).toBe(true);
    expect(matchesConditionalKey(' False ', false)).toBe(true);
    expect(matchesConditionalKey('42', 42)).toBe(true);
    expect(matchesConditionalKey(42, '42')).toBe(true);
    expect(matchesConditionalKey(true, 'true')).toBe(true);
    expect(matchesConditionalKey('', 0)).toBe(false);
    expect(matchesConditionalKey('yes', true)).toBe(false);
    expect(matchesConditionalKey({ ok: true }, 'ok')).toBe(false);
    expect(matchesConditionalKey(null, 'null')).toBe(false);
  });

  it('maxCount: at most N calls of the tool in one run, each call counted once', () => {
    expect(walk([rules.maxCount('search', 2)], ['search']).allowed).toContain('search');
    const { allowed, state, compiled } = walk([rules.maxCount('search', 2)], ['search', 'read', 'search']);
    expect(allowed).toEqual(['read', 'summarize', 'save', 'send']);
    expect(state.counts).toEqual({ search: 2 });
    expect(explainBlockedCall(compiled.program, state, 'search')?.reason).toBe('search may be called at most 2 time(s) per run');
  });

  it('requiredBeforeExit: the run may not end, and terminal tools are not allowed, until the tool has run', () => {
    const input = [rules.requiredBeforeExit('save'), rules.terminal('send')];
    const before = walk(input, ['search']);
    expect(before).toMatchObject({ allowed: ['search', 'read', 'summarize', 'save'], canEnd: false });
    expect(explainBlockedEnd(before.compiled.program, before.state)).toEqual({
      rule: 'requiredBeforeExit',
      reason: 'before finishing, call save',
      missing: ['save'],
    });
    expect(walk(input, ['search', 'save'])).toMatchObject({ allowed: TOOLS, canEnd: true });
  });

  it('requiredBeforeExit on a terminal tool lets the terminal tool satisfy itself', () => {
    expect(walk([rules.requiredBeforeExit('send'), rules.terminal('send')]).allowed).toContain('send');
  });

  it('requiresApproval: the call waits; approved it counts, rejected it never happened', () => {
    const compiled = compileToolRules([rules.requiresApproval('save'), rules.maxCount('save', 1)], TOOLS);
    const waiting = applyCall(compiled.program, initialToolRuleState(), 'save');
    expect(waiting.awaitingApproval).toBe('save');
    expect(allowedTools(compiled.program, waiting)).toEqual([]);
    expect(approveCall(compiled.program, waiting)).toMatchObject({ last: 'save', counts: { save: 1 }, awaitingApproval: null });
    expect(rejectCall(waiting)).toEqual(initialToolRuleState());
  });

  it('prefills init args before the first call and child args right after the parent', () => {
    const compiled = compileToolRules(
      [rules.init('search', { args: { q: 'x' } }), rules.child('search', ['read'], { args: { read: { id: 1 } } })],
      TOOLS,
    );
    const start = initialToolRuleState();
    expect(prefilledArgs(compiled.program, start, 'search')).toEqual({ q: 'x' });
    const afterSearch = applyCall(compiled.program, start, 'search');
    expect(prefilledArgs(compiled.program, afterSearch, 'read')).toEqual({ id: 1 });
    expect(prefilledArgs(compiled.program, applyCall(compiled.program, afterSearch, 'read'), 'read')).toBeUndefined();
  });
});

describe('rules combine by intersection', () => {
  it('two child rules on one tool allow only their common children', () => {
    const input = [rules.child('search', ['read', 'summarize', 'save']), rules.child('search', ['save', 'read'])];
    expect(walk(input, ['search']).allowed).toEqual(['read', 'save']);
  });

  it('a child rule, a parent rule and a max count narrow the same step together', () => {
    const input = [rules.child('search', ['read', 'summarize', 'save']), rules.parent('send', ['summarize']), rules.maxCount('read', 1)];
    expect(walk(input, ['read', 'search']).allowed).toEqual(['save']);
    expect(walk(input, ['send', 'search']).allowed).toEqual(['read', 'summarize', 'save']);
  });

  it('a conditional branch outside the child rule of the same tool is not allowed', () => {
    const input: ToolRuleInput[] = [
      rules.child('search', ['read', 'save']),
      rules.conditional('search', {
        cases: [
          ['a', 'read'],
          ['b', 'summarize'],
        ],
        default: 'save',
      }),
    ];
    // "b" picks summarize, which the child rule forbids: nothing would be allowed, so compilation refuses.
    expect(() => compileToolRules(input, TOOLS)).toThrow('after search (matches "b") no tool may be called');
    const compatible = [rules.child('search', ['read', 'save']), rules.conditional('search', { cases: { a: 'read' } })];
    expect(walk(compatible, ['search=a']).allowed).toEqual(['read']);
    expect(walk(compatible, ['search=z']).allowed).toEqual(['read', 'save']);
  });

  it('the machine agrees with the engine on every call in every state it passes through', () => {
    const compiled: CompiledToolRules = compileToolRules(
      [rules.init('search'), rules.child('search', ['read', 'summarize']), rules.maxCount('read', 1), rules.terminal('send')],
      TOOLS,
    );
    const actor = createActor(compiled.machine).start();
    for (const tool of ['search', 'read', 'save', 'send']) {
      const snapshot = actor.getSnapshot();
      const state = snapshot.context as ToolRuleState;
      expect(TOOLS.filter((name) => snapshot.can(callEvent(name)))).toEqual(allowedTools(compiled.program, state));
      actor.send(callEvent(tool));
    }
    expect(actor.getSnapshot().status).toBe('done');
  });
});
