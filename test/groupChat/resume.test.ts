import { createGroupChat } from '@agentchart/actors';
import { type Message, defineTool } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { record, speakers, talker } from './chatTestKit.js';

describe('resuming a chat', () => {
  it('continues from saved messages and shared state: turns are recovered, selection goes on from the last speaker', async () => {
    const saved: Message[] = [
      { role: 'user', content: 'Plan the launch.' },
      { role: 'assistant', name: 'a', content: 'Step 1.', toolCalls: [{ id: 'c1', name: 'note', arguments: {} }] },
      { role: 'tool', toolCallId: 'c1', toolName: 'note', content: 'noted' },
      { role: 'assistant', name: 'a', content: 'Step 2.' },
      { role: 'assistant', name: 'b', content: 'Looks fine.' },
    ];
    const a = talker('a', ['A']);
    const b = talker('b', ['B']);
    const c = talker('c', ['C']);
    const chat = createGroupChat({
      agents: [a.agent, b.agent, { agent: c.agent, handoffs: [{ to: 'a', when: (state) => state.phase === 'review' }] }],
      speakerSelection: 'round_robin',
      maxRounds: 3,
    });
    const run = chat.run(saved, { sharedState: { phase: 'review' } });
    const events = record(run);
    const result = await run.result;
    // Round robin after b is c, whose context condition (on the restored state) hands to a.
    expect(speakers(events)).toEqual(['c']);
    expect(c.model.requests).toHaveLength(0);
    expect(result.turns.map(({ speaker, start, end }) => [speaker, start, end])).toEqual([
      ['a', 1, 4],
      ['b', 4, 5],
      ['a', 5, 6],
    ]);
    expect(result).toMatchObject({ reason: 'max-rounds', rounds: 3, sharedState: { phase: 'review' } });
    expect(events[0]).toMatchObject({ type: 'chat.started', resumed: true });
  });

  it('a manual choice is persisted and resumed as well', async () => {
    const make = () => createGroupChat({ agents: [talker('a', ['A']).agent, talker('b', ['B']).agent], speakerSelection: 'manual', maxRounds: 2 });
    const first = make().run('task');
    const snapshot = await new Promise<ReturnType<typeof first.snapshot>>((resolve) => {
      let choices = 0;
      first.events$.subscribe((event) => {
        if (event.type !== 'speaker.choice.requested') return;
        if (choices++ === 0) first.select('b');
        else resolve(first.snapshot());
      });
    });
    first.abort();
    expect(snapshot.waiting).toEqual({ kind: 'choice', eligible: ['a', 'b'] });
    const resumed = make().resume(JSON.parse(JSON.stringify(snapshot)));
    resumed.events$.subscribe((event) => {
      if (event.type === 'speaker.choice.requested') resumed.select('a');
    });
    const result = await resumed.result;
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['b', 'a']);
    expect(result.reason).toBe('max-rounds');
  });
});

describe('shared state', () => {
  it('is one actor per chat: tools write it, context conditions read it, the result and events$ carry it', async () => {
    const approve = defineTool({
      name: 'approve',
      description: 'Approves the plan.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.state.set('approved', true);
        return 'approved';
      },
    });
    const critic = talker('critic', [{ toolCalls: [{ name: 'approve' }] }, 'Approved.'], [approve]);
    const planner = talker('planner', ['Plan.']);
    const chat = createGroupChat({
      agents: [
        planner.agent,
        critic.agent,
        { agent: talker('writer', ['W']).agent, handoffs: [{ to: 'terminate', when: (s) => s.approved === true }] },
      ],
      speakerSelection: 'round_robin',
      sharedState: { approved: false },
      maxRounds: 5,
    });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    expect(result).toMatchObject({ reason: 'handoff-terminate', rounds: 2, sharedState: { approved: true } });
    expect(events.filter((event) => event.type === 'state.changed').map((event) => event.type === 'state.changed' && event.change)).toEqual([
      {
        key: 'approved',
        value: true,
        previous: false,
        deleted: false,
        version: 1,
        source: { agent: 'critic', toolName: 'approve', callId: 'call_0_0' },
      },
    ]);
  });
});
