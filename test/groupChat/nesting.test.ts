import { createGroupChat } from '@agentchart/actors';
import { describe, expect, it } from 'vitest';
import { record, speakers, talker } from './chatTestKit.js';

describe('nesting', () => {
  it('a group chat takes part in another as one participant; its result is that speaker’s reply', async () => {
    const researcher = talker('researcher', ['Octopuses have three hearts.']);
    const critic = talker('critic', ['Verified: three hearts.']);
    const team = createGroupChat({
      name: 'research_team',
      description: 'Researches and checks facts.',
      agents: [researcher.agent, critic.agent],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const planner = talker('planner', ['We need one fact about octopuses.', 'Done: octopuses have three hearts.']);
    const chat = createGroupChat({ agents: [planner.agent, team], speakerSelection: 'round_robin', maxRounds: 3 });
    const run = chat.run('Tell me about octopuses.');
    const events = record(run);
    const result = await run.result;

    expect(speakers(events)).toEqual(['planner', 'research_team', 'planner']);
    expect(result.messages).toEqual([
      { role: 'user', content: 'Tell me about octopuses.' },
      { role: 'assistant', name: 'planner', content: 'We need one fact about octopuses.' },
      { role: 'assistant', name: 'research_team', content: 'Verified: three hearts.' },
      { role: 'assistant', name: 'planner', content: 'Done: octopuses have three hearts.' },
    ]);
    // The inner chat got the outer view as its task.
    expect(researcher.model.requests[0]?.messages.slice(1)).toEqual([
      { role: 'user', content: 'Tell me about octopuses.' },
      { role: 'user', name: 'planner', content: 'We need one fact about octopuses.' },
    ]);
    const nested = events.filter((event) => event.type === 'nested.event');
    expect(nested.map((event) => event.type === 'nested.event' && event.event.type).filter((type) => type === 'speaker.selected')).toHaveLength(2);
    expect(nested.every((event) => event.type === 'nested.event' && event.speaker === 'research_team')).toBe(true);
  });
});
