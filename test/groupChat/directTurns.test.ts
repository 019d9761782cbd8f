import { type ChatEvent, ChatNotWaitingError, type GroupChatRun, createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { type ScriptedTurn, scriptedModel } from '@agentchart/providers';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { DirectAgentTurn } from '../../packages/actors/src/groupChat/directAgentTurn.js';
import { DirectTurnRun } from '../../packages/actors/src/groupChat/directTurnRun.js';

/**
 * An agent without tools takes its chat turns without an agent actor
 * (`DirectAgentTurn`) unless someone inspects the chat. The same chat run
 * both ways must give the same events, in the same order, and the same result.
 */

type Script = (index: number) => ScriptedTurn;

interface ChatShape {
  latencyMs?: number;
  maxRounds?: number;
  random?: boolean;
  maxTokens?: number;
  afterWork?: Record<string, string>;
  /** Agents given a tool (their turns take the agent actor). */
  withTool?: string[];
  /** People among the participants, after the agents (a person's turn is never direct). */
  people?: string[];
  /** The chat's name (a nested chat's, as a participant). */
  name?: string;
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => word.length,
});

function chatOf(scripts: Record<string, Script>, options: ChatShape = {}) {
  const agents = Object.entries(scripts).map(([name, script]) => {
    const agent = createAgent({
      name,
      instructions: `You are ${name}.`,
      tools: options.withTool?.includes(name) ? [lookup] : [],
      model: scriptedModel((_request, index) => script(index), { latencyMs: options.latencyMs ?? 0 }),
    });
    const afterWork = options.afterWork?.[name];
    return afterWork === undefined ? agent : { agent, afterWork };
  });
  const people = (options.people ?? []).map((name) => humanAgent({ name }));
  return createGroupChat({
    ...(options.name === undefined ? {} : { name: options.name }),
    agents: [...agents, ...people],
    speakerSelection: options.random ? { method: 'random', seed: 7 } : 'round_robin',
    maxRounds: options.maxRounds ?? 4,
    ...(options.maxTokens === undefined ? {} : { maxTokens: { total: options.maxTokens } }),
  });
}

/** Events with the run's random ids replaced by their order of appearance. */
function normalized(events: readonly ChatEvent[]): unknown[] {
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `id${ids.size}`);
    return ids.get(id);
  };
  return JSON.parse(
    JSON.stringify(events, (key, value) => ((key === 'runId' || key === 'chatId') && typeof value === 'string' ? idOf(value) : value)),
  );
}

/** Runs a fresh chat directly (nobody inspects it) and through the agent actors (an inspector), and returns both. */
async function bothWays(make: () => ReturnType<typeof chatOf>, act?: (event: ChatEvent, abort: () => void, run: GroupChatRun) => void) {
  const runs = [];
  for (const inspected of [false, true]) {
    const seen: string[] = [];
    const run = make().run('Plan the launch.', inspected ? { inspect: (event) => seen.push(event.type) } : {});
    const events: ChatEvent[] = [];
    run.events$.subscribe((event) => {
      events.push(event);
      act?.(event, run.abort, run);
    });
    const result = await run.result;
    runs.push({ events: normalized(events), result: normalized([result as unknown as ChatEvent])[0], inspectorSaw: seen.length });
  }
  const [direct, full] = runs as [(typeof runs)[0], (typeof runs)[0]];
  expect(direct.inspectorSaw).toBe(0);
  expect(full.inspectorSaw).toBeGreaterThan(0);
  return { direct, full };
}

describe('direct agent turns (no agent actor)', () => {
  it('are taken by agents without tools in a chat nobody inspects, never in an inspected one', async () => {
    const started = vi.spyOn(DirectAgentTurn.prototype, 'start');
    try {
      const script: Script = () => ({ text: 'ok' });
      await chatOf({ a: script, b: script }).run('Go.').result;
      expect(started).toHaveBeenCalledTimes(4);
      started.mockClear();
      await chatOf({ a: script, b: script }).run('Go.', { inspect: () => {} }).result;
      expect(started).not.toHaveBeenCalled();
    } finally {
      started.mockRestore();
    }
  });

  it('give the events and the result of the agent actors, for replies streamed in pieces with reasoning and usage', async () => {
    const script: Script = (index) => ({
      text: `answer ${index}`,
      reasoning: 'thinking',
      chunks: 3,
      usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 },
    });
    for (const latencyMs of [0, 2]) {
      const { direct, full } = await bothWays(() => chatOf({ a: script, b: script, c: script }, { latencyMs }));
      expect(direct.events).toEqual(full.events);
      expect(direct.result).toEqual(full.result);
      expect(direct.events.filter((event) => (event as ChatEvent).type === 'turn.finished')).toHaveLength(4);
    }
  });

  it('hand over to the next speaker as the selection of the manager does: random, afterWork, a token budget', async () => {
    const script: Script = (index) => ({ text: `answer ${index}`, usage: { inputTokens: 5, outputTokens: 5, totalTokens: 10 } });
    const four = { a: script, b: script, c: script, d: script };
    const cases: [ChatShape, string, string][] = [
      [{ random: true, maxRounds: 9 }, 'max-rounds', '"by":"random"'],
      [{ afterWork: { a: 'c', c: 'a' }, maxRounds: 5 }, 'max-rounds', '"via":"after-work"'],
      [{ maxTokens: 35, maxRounds: 9 }, 'token-budget', '"round":4'],
    ];
    for (const [shape, reason, seen] of cases) {
      const { direct, full } = await bothWays(() => chatOf(four, shape));
      expect(direct.events).toEqual(full.events);
      expect(direct.result).toEqual(full.result);
      expect(direct.result).toMatchObject({ reason });
      expect(JSON.stringify(direct.events)).toContain(seen);
    }
  });

  it('take turns beside agents with tools, which keep their agent actor', async () => {
    const plain: Script = (index) => ({ text: `answer ${index}` });
    const caller: Script = (index) => (index % 2 === 0 ? { toolCalls: [{ name: 'lookup', arguments: { word: 'launch' } }] } : { text: 'looked up' });
    const { direct, full } = await bothWays(() => chatOf({ a: plain, b: caller, c: plain }, { maxRounds: 6, withTool: ['b'] }));
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(JSON.stringify(direct.events)).toContain('"toolName":"lookup"');
  });

  it('end the chat as the manager does after an empty reply', async () => {
    const { direct, full } = await bothWays(() => chatOf({ a: () => ({ text: 'fine' }), b: () => ({ text: '' }) }, { maxRounds: 5 }));
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(direct.result).toMatchObject({ reason: 'empty-reply', rounds: 2 });
  });

  it('give the same failed turn when the model fails', async () => {
    const { direct, full } = await bothWays(() => chatOf({ a: () => ({ text: 'fine' }), b: () => ({ error: 'model down' }) }, { maxRounds: 3 }));
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(JSON.stringify(direct.events)).toContain('model down');
  });

  it('answer tool calls to tools the agent does not have as the agent actor does, under its limits', async () => {
    // The model calls a tool it was never offered: every call is answered with an error, until maxConsecutiveErrors ends the turn.
    const { direct, full } = await bothWays(() =>
      chatOf({ a: () => ({ toolCalls: [{ name: 'search', arguments: { q: 'x' } }] }), b: () => ({ text: 'done' }) }, { maxRounds: 2 }),
    );
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(JSON.stringify(direct.events)).toContain('max-consecutive-errors');
  });

  it('are cut short by an abort as the agent actor is, the same partial turn kept', async () => {
    const script: Script = (index) => ({ text: `answer ${index}` });
    const abortAt = (event: ChatEvent, abort: () => void) => {
      if (event.type === 'agent.event' && event.event.type === 'model.request' && event.speaker === 'b') setTimeout(abort, 0);
    };
    const { direct, full } = await bothWays(() => chatOf({ a: script, b: script }, { latencyMs: 5 }), abortAt);
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(direct.result).toMatchObject({ reason: 'aborted', rounds: 1 });
  });

  it('start as the agent actor does when a listener of `speaker.selected` aborts the chat', async () => {
    const script: Script = () => ({ text: 'ok' });
    const abortOnSelect = (event: ChatEvent, abort: () => void) => {
      if (event.type === 'speaker.selected' && event.speaker === 'b') abort();
    };
    const { direct, full } = await bothWays(() => chatOf({ a: script, b: script }, { latencyMs: 1 }), abortOnSelect);
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
  });

  it('hand over from direct turn to direct turn without the manager: it catches up once, when the run of direct turns ends', async () => {
    const caughtUp = vi.spyOn(DirectTurnRun.prototype, 'catchUp');
    try {
      const script: Script = (index) => ({ text: `answer ${index}` });
      const result = await chatOf({ a: script, b: script, c: script, d: script }, { maxRounds: 8, latencyMs: 1 }).run('Go.').result;
      expect(result).toMatchObject({ reason: 'max-rounds', rounds: 8 });
      expect(result.turns.map((turn) => turn.speaker)).toEqual(['a', 'b', 'c', 'd', 'a', 'b', 'c', 'd']);
      // The last turn's `direct.turn.done` (the chat ends): the manager takes the run's context over once for eight turns.
      expect(caughtUp).toHaveBeenCalledTimes(1);
    } finally {
      caughtUp.mockRestore();
    }
  });

  it('are aborted in the middle of a run of direct turns as the agent actors are, the transcript of the run kept', async () => {
    const script: Script = (index) => ({ text: `answer ${index}`, usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } });
    const abortAt = (event: ChatEvent, abort: () => void) => {
      if (event.type === 'agent.event' && event.event.type === 'model.request' && event.speaker === 'c') setTimeout(abort, 0);
    };
    const { direct, full } = await bothWays(() => chatOf({ a: script, b: script, c: script, d: script }, { latencyMs: 3, maxRounds: 8 }), abortAt);
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(direct.result).toMatchObject({
      reason: 'aborted',
      rounds: 2,
      lastSpeaker: 'b',
      usage: { inputTokens: 6, outputTokens: 2 },
      turns: [
        { speaker: 'a', start: 1, end: 2, addressedTo: 'b' },
        { speaker: 'b', start: 2, end: 3, addressedTo: 'c' },
      ],
    });
  });

  it('keep a turn whose run had finished as partial when the chat is aborted from a listener of its last event', async () => {
    const script: Script = (index) => ({ text: `answer ${index}` });
    const abortAtEnd = (event: ChatEvent, abort: () => void) => {
      if (event.type === 'agent.event' && event.event.type === 'run.finished' && event.speaker === 'c') abort();
    };
    for (const latencyMs of [0, 1]) {
      const { direct, full } = await bothWays(() => chatOf({ a: script, b: script, c: script, d: script }, { latencyMs }), abortAtEnd);
      expect(direct.events).toEqual(full.events);
      expect(direct.result).toEqual(full.result);
      expect(direct.result).toMatchObject({
        reason: 'aborted',
        rounds: 3,
        turns: [{ speaker: 'a' }, { speaker: 'b' }, { speaker: 'c', partial: true }],
      });
    }
  });

  it('start the next turn before an abort from a listener of a hand-over’s events is taken, as the manager’s mailbox does', async () => {
    const script: Script = (index) => ({ text: `answer ${index}` });
    const four = { a: script, b: script, c: script, d: script };
    const listeners: ((event: ChatEvent, abort: () => void) => void)[] = [
      (event, abort) => event.type === 'turn.finished' && event.speaker === 'b' && abort(),
      (event, abort) => event.type === 'speaker.selected' && event.speaker === 'c' && abort(),
      (event, abort) => event.type === 'agent.event' && event.event.type === 'run.started' && event.speaker === 'c' && abort(),
    ];
    for (const latencyMs of [0, 1]) {
      for (const listener of listeners) {
        const { direct, full } = await bothWays(() => chatOf(four, { latencyMs }), listener);
        expect(direct.events).toEqual(full.events);
        expect(direct.result).toEqual(full.result);
        expect(direct.result).toMatchObject({ reason: 'aborted' });
      }
    }
  });

  it('show the truth to what reads the chat in the middle of a run: waiting, snapshot, shared state', async () => {
    const script: Script = (index) => ({ text: `answer ${index}` });
    const reads: unknown[] = [];
    const readMidRun = (event: ChatEvent, _abort: () => void, run: GroupChatRun) => {
      if (event.type !== 'speaker.selected' || event.speaker !== 'c') return;
      reads.push(run.waiting(), run.state.values());
      expect(() => run.snapshot()).toThrow(ChatNotWaitingError);
    };
    const { direct, full } = await bothWays(() => chatOf({ a: script, b: script, c: script }, { latencyMs: 1 }), readMidRun);
    expect(direct.events).toEqual(full.events);
    expect(direct.result).toEqual(full.result);
    expect(reads).toEqual([undefined, {}, undefined, {}]);
  });

  it('keep a nested chat’s reply so far when the outer chat is aborted in the middle of the nested chat’s run of direct turns', async () => {
    const results = [];
    for (const inspect of [undefined, () => {}]) {
      const script: Script = (index) => ({ text: `fact ${index}` });
      const team = chatOf({ r: script, s: script, t: script }, { latencyMs: 2, maxRounds: 3, name: 'team' });
      const lead = createAgent({ name: 'lead', instructions: 'Lead.', model: scriptedModel(() => ({ text: 'We need facts.' })) });
      const outer = createGroupChat({
        agents: [lead, team],
        speakerSelection: 'round_robin',
        maxRounds: 3,
      });
      const run = outer.run('Tell me.', inspect === undefined ? {} : { inspect });
      run.events$.subscribe((event) => {
        const inner = event.type === 'nested.event' ? event.event : undefined;
        if (inner?.type === 'agent.event' && inner.speaker === 't' && inner.event.type === 'model.request') setTimeout(run.abort, 0);
      });
      results.push(normalized([(await run.result) as unknown as ChatEvent])[0]);
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]).toMatchObject({
      reason: 'aborted',
      turns: [{ speaker: 'lead' }, { speaker: 'team', partial: true }],
      messages: [{ role: 'user' }, { name: 'lead' }, { role: 'assistant', name: 'team', content: 'fact 0' }],
    });
  });

  it('go on as a run of direct turns after a person’s turn and an agent actor’s turn interrupt them', async () => {
    const caughtUp = vi.spyOn(DirectTurnRun.prototype, 'catchUp');
    try {
      const plain: Script = (index) => ({ text: `answer ${index}` });
      const caller: Script = (index) => (index % 2 === 0 ? { toolCalls: [{ name: 'lookup', arguments: { word: 'go' } }] } : { text: 'looked' });
      const answer = (event: ChatEvent, _abort: () => void, run: GroupChatRun) => {
        if (event.type === 'human.waiting') run.say(`said at ${event.speaker}`);
      };
      const make = () => chatOf({ a: plain, b: plain, t: caller, c: plain }, { latencyMs: 1, maxRounds: 10, withTool: ['t'], people: ['alice'] });
      const { direct, full } = await bothWays(make, answer);
      expect(direct.events).toEqual(full.events);
      expect(direct.result).toEqual(full.result);
      expect((direct.result as { turns: { speaker: string }[] }).turns.map((turn) => turn.speaker)).toEqual([
        'a',
        'b',
        't',
        'c',
        'alice',
        'a',
        'b',
        't',
        'c',
        'alice',
      ]);
      // Runs of direct turns: a–b (ends at t), c (ends at alice), a–b (ends at t), c (ends at alice); the inspected chat takes none.
      expect(caughtUp).toHaveBeenCalledTimes(4);
    } finally {
      caughtUp.mockRestore();
    }
  });
});
