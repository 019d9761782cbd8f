import { createGroupChat, humanAgent } from '@agentchart/actors';
import { describe, expect, it } from 'vitest';
import { record, speakers, talker } from './chatTestKit.js';

describe('handoffs', () => {
  it('offer transfer_to_<name> tools; calling one ends the turn and picks the next speaker over the selection method', async () => {
    const a = talker('a', [{ text: 'Over to c.', toolCalls: [{ name: 'transfer_to_c' }] }]);
    const b = talker('b', ['B']);
    const c = talker('c', ['C']);
    const chat = createGroupChat({
      agents: [{ agent: a.agent, handoffs: [{ to: 'c', description: 'When the answer needs checking.' }] }, b.agent, c.agent],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    expect(speakers(events)).toEqual(['a', 'c']);
    expect(a.model.requests).toHaveLength(1);
    expect(a.model.requests[0]?.tools).toEqual([
      { name: 'transfer_to_c', description: 'When the answer needs checking.', parameters: { type: 'object', properties: {} } },
    ]);
    expect(events.filter((event) => event.type === 'handoff')).toEqual([{ type: 'handoff', chatId: result.chatId, from: 'a', to: 'c', via: 'tool' }]);
    expect(events.find((event) => event.type === 'speaker.selected' && event.speaker === 'c')).toMatchObject({ by: 'handoff' });
    expect(result.messages.slice(1, 3)).toEqual([
      { role: 'assistant', name: 'a', content: 'Over to c.', toolCalls: [{ id: 'call_0_0', name: 'transfer_to_c', arguments: {} }] },
      { role: 'tool', toolCallId: 'call_0_0', toolName: 'transfer_to_c', content: 'Handing the conversation to c.' },
    ]);
  });

  it('check context conditions on shared state first: the speaker hands off without a model call', async () => {
    const a = talker('a', ['A']);
    const b = talker('b', [{ toolCalls: [{ name: 'transfer_to_a' }] }]);
    const c = talker('c', ['C']);
    const chat = createGroupChat({
      agents: [a.agent, { agent: b.agent, handoffs: [{ to: 'c', when: (state) => state.approved === true }, { to: 'a' }] }, c.agent],
      speakerSelection: 'round_robin',
      sharedState: { approved: true },
      maxRounds: 2,
    });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    expect(b.model.requests).toHaveLength(0);
    expect(speakers(events)).toEqual(['a', 'b']);
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['a', 'c']);
    expect(events.filter((event) => event.type === 'handoff')).toEqual([
      { type: 'handoff', chatId: result.chatId, from: 'b', to: 'c', via: 'context' },
    ]);
  });

  it('a context condition that does not hold leaves the turn to the model', async () => {
    const b = talker('b', ['B']);
    const chat = createGroupChat({
      agents: [{ agent: b.agent, handoffs: [{ to: 'terminate', when: (state) => state.done === true }] }],
      speakerSelection: 'round_robin',
      sharedState: { done: false },
      maxRounds: 1,
    });
    const result = await chat.run('task').result;
    expect(b.model.requests).toHaveLength(1);
    expect(result.reason).toBe('max-rounds');
  });

  it('a tool handoff beats afterWork, and afterWork beats the selection method', async () => {
    const a = talker('a', [{ toolCalls: [{ name: 'transfer_to_b' }] }, 'A again']);
    const b = talker('b', ['B']);
    const c = talker('c', ['C']);
    const chat = createGroupChat({
      agents: [{ agent: a.agent, handoffs: [{ to: 'b' }], afterWork: 'c' }, { agent: b.agent, afterWork: 'a' }, c.agent],
      speakerSelection: 'round_robin',
      maxRounds: 4,
    });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    // a hands off to b (tool, over afterWork c); b's afterWork a (over round robin c); a answers, afterWork c.
    expect(speakers(events)).toEqual(['a', 'b', 'a', 'c']);
    expect(
      events.filter((event) => event.type === 'handoff').map((event) => event.type === 'handoff' && `${event.from}>${event.to}:${event.via}`),
    ).toEqual(['a>b:tool', 'b>a:after-work', 'a>c:after-work']);
    expect(result.reason).toBe('max-rounds');
  });

  it("afterWork 'user' gives the turn to the human participant", async () => {
    const a = talker('a', ['Done, what next?']);
    const alice = humanAgent({ name: 'alice' });
    const chat = createGroupChat({
      agents: [{ agent: a.agent, afterWork: 'user' }, alice],
      speakerSelection: 'round_robin',
      transitions: { allowed: { a: ['alice'], alice: ['a'] } },
      maxRounds: 2,
    });
    const run = chat.run('task');
    run.events$.subscribe((event) => {
      if (event.type === 'human.waiting') run.say('Nothing, thanks.');
    });
    const result = await run.result;
    expect(result.messages.at(-1)).toEqual({ role: 'user', name: 'alice', content: 'Nothing, thanks.' });
  });
});
