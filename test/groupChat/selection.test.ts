import { type ChatEventOf, IneligibleSpeakerError, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { record, speakers, talker } from './chatTestKit.js';

const trio = () => [talker('a', ['A']).agent, talker('b', ['B']).agent, talker('c', ['C']).agent];

describe('speaker selection', () => {
  it('round_robin takes the participants in order, narrowed by the transitions', async () => {
    const plain = createGroupChat({ agents: trio(), speakerSelection: 'round_robin', maxRounds: 4 });
    const plainRun = plain.run('task');
    const plainEvents = record(plainRun);
    await plainRun.result;
    expect(speakers(plainEvents)).toEqual(['a', 'b', 'c', 'a']);

    const narrowed = createGroupChat({
      agents: trio(),
      speakerSelection: 'round_robin',
      transitions: { allowed: { a: ['c'], b: ['a'], c: ['a', 'b'] } },
      maxRounds: 5,
    });
    const run = narrowed.run('task');
    const events = record(run);
    await run.result;
    expect(speakers(events)).toEqual(['a', 'c', 'a', 'c', 'a']);
    expect(events.find((event) => event.type === 'speaker.selected' && event.round === 2)).toMatchObject({ eligible: ['c'], by: 'round_robin' });
  });

  it('random is reproducible with a seed and picks only eligible speakers', async () => {
    const sequence = async (seed: number) => {
      const chat = createGroupChat({ agents: trio(), speakerSelection: { method: 'random', seed }, allowRepeatSpeaker: false, maxRounds: 8 });
      const run = chat.run('task');
      const events = record(run);
      await run.result;
      return speakers(events);
    };
    const first = await sequence(7);
    expect(await sequence(7)).toEqual(first);
    expect(first).toEqual(['a', 'b', 'c', 'b', 'c', 'a', 'b', 'a']);
    expect(await sequence(8)).not.toEqual(first);
    for (let index = 1; index < first.length; index++) expect(first[index]).not.toBe(first[index - 1]);
  });

  it('manual waits for a person to choose through the handle, and refuses an ineligible choice', async () => {
    const chat = createGroupChat({ agents: trio(), speakerSelection: 'manual', allowRepeatSpeaker: false, maxRounds: 10 });
    const run = chat.run('task');
    const choices = ['b', 'a', 'terminate'];
    const requested: string[][] = [];
    run.events$.subscribe((event) => {
      if (event.type !== 'speaker.choice.requested') return;
      requested.push(event.eligible);
      if (requested.length === 2) expect(() => run.select('b')).toThrow(IneligibleSpeakerError);
      run.select(choices.shift() as string);
    });
    const events = record(run);
    const result = await run.result;
    expect(requested).toEqual([
      ['a', 'b', 'c'],
      ['a', 'c'],
      ['b', 'c'],
    ]);
    expect(speakers(events)).toEqual(['b', 'a']);
    expect(events.filter((event) => event.type === 'speaker.selected').map((event) => (event as ChatEventOf<'speaker.selected'>).by)).toEqual([
      'manual',
      'manual',
    ]);
    expect(result.reason).toBe('selector-terminate');
    expect(result.rounds).toBe(2);
  });

  it('auto constrains the model to the eligible names and re-asks after an ineligible answer', async () => {
    const selector = scriptedModel([{ text: '{"speaker":"a"}' }, { text: '{"speaker":"c"}' }]);
    const chat = createGroupChat({
      agents: trio(),
      speakerSelection: { method: 'auto', model: selector },
      transitions: { allowed: { a: ['b', 'c'], b: ['a'], c: ['a'] } },
      maxRounds: 2,
    });
    const run = chat.run('Who should go?');
    const events = record(run);
    const result = await run.result;
    // The first speaker is the only one allowed to start: no model call for it.
    expect(speakers(events)).toEqual(['a', 'c']);
    expect(selector.requests).toHaveLength(2);
    expect(selector.requests[0]?.responseFormat).toEqual({
      type: 'json_schema',
      name: 'next_speaker',
      schema: {
        type: 'object',
        properties: { speaker: { type: 'string', enum: ['b', 'c'] } },
        required: ['speaker'],
        additionalProperties: false,
      },
    });
    expect(selector.requests[1]?.messages.slice(-2)).toEqual([
      { role: 'assistant', content: '{"speaker":"a"}' },
      { role: 'user', content: '"{\\"speaker\\":\\"a\\"}" does not name a participant who may speak now. Choose exactly one of: b, c.' },
    ]);
    expect(events.filter((event) => event.type === 'speaker.rejected')).toEqual([
      { type: 'speaker.rejected', chatId: result.chatId, answer: '{"speaker":"a"}', eligible: ['b', 'c'], attempt: 1 },
    ]);
    expect(events.find((event) => event.type === 'speaker.selected' && event.speaker === 'c')).toMatchObject({ by: 'auto' });
  });

  it('auto falls back deterministically, with an event, when every answer is ineligible', async () => {
    const selector = scriptedModel(() => ({ text: 'a' }));
    const chat = createGroupChat({
      agents: trio(),
      speakerSelection: { method: 'auto', model: selector, maxRetries: 1 },
      transitions: { allowed: { a: ['b', 'c'], b: ['a'], c: ['a'] } },
      maxRounds: 2,
    });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    expect(selector.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'speaker.fallback')).toEqual([
      { type: 'speaker.fallback', chatId: result.chatId, speaker: 'b', reason: 'ineligible-answers', answers: ['a', 'a'] },
    ]);
    expect(speakers(events)).toEqual(['a', 'b']);
  });

  it('a selection function decides from the chat state; its `terminate` ends the chat', async () => {
    const seen: string[][] = [];
    const chat = createGroupChat({
      agents: trio(),
      speakerSelection: ({ rounds, eligible }) => {
        seen.push([...eligible]);
        return rounds === 0 ? 'c' : rounds === 1 ? 'a' : 'terminate';
      },
      allowRepeatSpeaker: false,
      maxRounds: 10,
    });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    expect(speakers(events)).toEqual(['c', 'a']);
    expect(seen).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(result.reason).toBe('selector-terminate');
  });

  it('a selection function that names an ineligible speaker ends the chat with an error', async () => {
    const chat = createGroupChat({ agents: trio(), speakerSelection: () => 'a', allowRepeatSpeaker: false, maxRounds: 5 });
    const result = await chat.run('task').result;
    expect(result.reason).toBe('error');
    expect(result.rounds).toBe(1);
    expect(result.error).toMatchObject({ code: 'GROUP_CHAT_SPEAKER_INELIGIBLE' });
  });
});
