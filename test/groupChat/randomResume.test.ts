import { type GroupChatRun, type GroupChatSnapshot, createGroupChat, humanAgent } from '@agentchart/actors';
import { describe, expect, it } from 'vitest';
import { record, speakers, talker } from './chatTestKit.js';

const makeChat = () =>
  createGroupChat({
    agents: [talker('a', ['A']).agent, talker('b', ['B']).agent, humanAgent({ name: 'h' }), talker('c', ['C']).agent],
    speakerSelection: { method: 'random', seed: 11 },
    allowRepeatSpeaker: false,
    maxRounds: 8,
  });

/** Answers the person each time the chat waits for them. */
const answerPerson = (run: GroupChatRun) =>
  run.events$.subscribe((event) => {
    if (event.type === 'human.waiting') run.say('ok');
  });

describe('random selection across persist and resume', () => {
  it('a resumed chat draws the same speakers as one that never stopped (the seeded generator is persisted)', async () => {
    const whole = makeChat().run('task');
    const wholeEvents = record(whole);
    answerPerson(whole);
    await whole.result;
    const expected = speakers(wholeEvents);
    expect(expected).toContain('h');

    const first = makeChat().run('task');
    const firstEvents = record(first);
    const snapshot = await new Promise<GroupChatSnapshot>((resolve) => {
      first.events$.subscribe((event) => {
        if (event.type === 'human.waiting') resolve(first.snapshot());
      });
    });
    first.abort();
    const resumed = makeChat().resume(JSON.parse(JSON.stringify(snapshot)));
    const resumedEvents = record(resumed);
    answerPerson(resumed);
    await resumed.result;
    expect([...speakers(firstEvents), ...speakers(resumedEvents)]).toEqual(expected);
  });
});
