import { type SpeakerTransitions, TransitionGraphError, compileTransitions, createGroupChat } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { getShortestPaths } from 'xstate/graph';
import { record, speakers, talker } from './chatTestKit.js';

const agents = (...names: string[]) => names.map((name) => talker(name, [name.toUpperCase()]).agent);

describe('speaker transitions', () => {
  it('compile into a statechart with a state per last speaker', () => {
    const graph = compileTransitions(['a', 'b', 'c'], { transitions: { allowed: { a: ['b', 'c'], b: ['c'], c: ['a'] } } });
    expect(graph.eligibleAfter(undefined)).toEqual(['a']);
    expect(graph.eligibleAfter('a')).toEqual(['b', 'c']);
    expect(graph.eligibleAfter('b')).toEqual(['c']);
    const reachable = getShortestPaths(graph.machine, { events: [{ type: 'a' }, { type: 'b' }, { type: 'c' }] }).map((path) => path.state.value);
    expect(reachable.sort()).toEqual(['(start)', 'a', 'b', 'c']);
  });

  it('disallowed transitions and allowRepeatSpeaker remove edges from the full graph', () => {
    const graph = compileTransitions(['a', 'b', 'c'], { transitions: { disallowed: { a: ['c'] } }, allowRepeatSpeaker: ['b'] });
    expect(graph.eligibleAfter('a')).toEqual(['b']);
    expect(graph.eligibleAfter('b')).toEqual(['a', 'b', 'c']);
    expect(graph.eligibleAfter('c')).toEqual(['a', 'b']);
    expect(compileTransitions(['a', 'b'], {}).eligibleAfter(undefined)).toEqual(['a', 'b']);
    expect(compileTransitions(['a', 'b'], { allowRepeatSpeaker: false }).eligibleAfter('a')).toEqual(['b']);
  });

  it('rejects unknown names and handoffs the transitions forbid, before any model call', () => {
    const [a, b, c] = agents('a', 'b', 'c');
    let error: unknown;
    try {
      createGroupChat({
        agents: [a!, { agent: b!, handoffs: [{ to: 'a' }] }, c!],
        speakerSelection: 'round_robin',
        transitions: { allowed: { a: ['b', 'zed'], b: ['c'], c: ['a'], ghost: ['a'] } },
        maxRounds: 3,
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(TransitionGraphError);
    expect((error as TransitionGraphError).code).toBe('GROUP_CHAT_TRANSITIONS_INVALID');
    expect((error as TransitionGraphError).problems).toEqual([
      {
        kind: 'unknown-participant',
        severity: 'error',
        participant: 'zed',
        message: 'transitions.allowed.a[1] names "zed", who is not a participant (participants: a, b, c).',
      },
      {
        kind: 'unknown-participant',
        severity: 'error',
        participant: 'ghost',
        message: 'transitions.allowed (key "ghost") names "ghost", who is not a participant (participants: a, b, c).',
      },
      {
        kind: 'handoff-not-allowed',
        severity: 'error',
        participant: 'b',
        path: ['b', 'a'],
        message: 'the handoff tool transfer_to_a of "b" hands off from "b" to "a", but the transitions do not allow "b" → "a".',
      },
    ]);
  });

  it('rejects transitions of the wrong shape with a message that shows the right one', () => {
    const names = ['a', 'b'];
    const both = { allowed: { a: ['b'] }, disallowed: { b: ['a'] } } as unknown as SpeakerTransitions;
    expect(() => compileTransitions(names, { transitions: both })).toThrow(
      "transitions takes exactly one of `allowed` or `disallowed` ({ allowed: { planner: ['researcher'] } }); got keys: allowed, disallowed.",
    );
    expect(() => compileTransitions(names, { transitions: {} as SpeakerTransitions })).toThrow(ConfigurationError);
    expect(() => compileTransitions(names, { transitions: { allowed: { a: 'b' } } as unknown as SpeakerTransitions })).toThrow(
      `transitions.allowed maps each participant to a list of names ({ planner: ['researcher'] }); got "b" for "a".`,
    );
  });

  it('warns about a speaker with no way out, with the shortest path to it, and about participants that never speak', () => {
    const chat = createGroupChat({
      agents: agents('a', 'b', 'c', 'd', 'e'),
      speakerSelection: 'round_robin',
      transitions: { allowed: { a: ['b', 'c'], b: ['c'], c: ['d'], e: ['a'] } },
      maxRounds: 3,
    });
    expect(chat.warnings.map(({ kind, participant, path }) => ({ kind, participant, path }))).toEqual([
      { kind: 'no-way-out', participant: 'd', path: ['a', 'c', 'd'] },
      { kind: 'never-speaks', participant: 'e', path: ['a', 'b', 'c', 'd'] },
    ]);
    expect(chat.warnings[0]?.message).toBe(
      '"d" has no way out: after a → c → d nobody may speak. Allow a transition from "d", or give it afterWork: \'terminate\' if the chat should end there.',
    );
  });

  it('accepts a dead end whose afterWork ends the chat', () => {
    const [a, b] = agents('a', 'b');
    const chat = createGroupChat({
      agents: [a!, { agent: b!, afterWork: 'terminate' }],
      speakerSelection: 'round_robin',
      transitions: { allowed: { a: ['b'] } },
      maxRounds: 5,
    });
    expect(chat.warnings).toEqual([]);
  });

  it('narrow the random and auto methods too (never an edge the statechart lacks)', async () => {
    const chat = createGroupChat({
      agents: agents('a', 'b', 'c'),
      speakerSelection: { method: 'random', seed: 3 },
      transitions: { allowed: { a: ['b'], b: ['c'], c: ['a'] } },
      maxRounds: 6,
    });
    const run = chat.run('task');
    const events = record(run);
    await run.result;
    expect(speakers(events)).toEqual(['a', 'b', 'c', 'a', 'b', 'c']);
  });
});
