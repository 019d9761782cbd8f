import { createGroupChat } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { record, talker } from './chatTestKit.js';

describe('termination', () => {
  it('ends on a keyword in a reply, before any further selection', async () => {
    const a = talker('a', ['Working on it.']);
    const b = talker('b', ['All good. TERMINATE']);
    const chat = createGroupChat({ agents: [a.agent, b.agent], speakerSelection: 'round_robin', terminate: 'TERMINATE', maxRounds: 10 });
    const run = chat.run('task');
    const events = record(run);
    const result = await run.result;
    expect(result).toMatchObject({ reason: 'terminate-message', rounds: 2, lastSpeaker: 'b' });
    expect(events.at(-1)).toEqual({ type: 'chat.finished', chatId: result.chatId, reason: 'terminate-message', rounds: 2, lastSpeaker: 'b' });
  });

  it('ends on a keyword only where it closes the reply as a sentence of its own, never inside one', async () => {
    const endsOn = async (reply: string) => {
      const chat = createGroupChat({
        agents: [talker('critic', [reply, 'more']).agent],
        speakerSelection: 'round_robin',
        terminate: 'APPROVED',
        maxRounds: 2,
      });
      return (await chat.run('Review the draft.').result).reason;
    };
    for (const reply of ['APPROVED', 'APPROVED.', '  APPROVED!\n', 'The claim holds. APPROVED', 'Checked the sources:\nAPPROVED', 'Fine? APPROVED'])
      expect([reply, await endsOn(reply)]).toEqual([reply, 'terminate-message']);
    for (const reply of ['This is NOT APPROVED yet', 'NOT APPROVED', 'not APPROVED.', 'approved', 'APPROVED, once the dates are fixed', 'UNAPPROVED'])
      expect([reply, await endsOn(reply)]).toEqual([reply, 'max-rounds']);
  });

  it('rejects a terminate option that is no keyword, list of keywords or predicate', () => {
    const make = (terminate: unknown) =>
      createGroupChat({ agents: [talker('a', ['A']).agent], speakerSelection: 'round_robin', maxRounds: 1, terminate: terminate as string });
    expect(() => make(5)).toThrow("terminate takes a keyword ('TERMINATE'), a list of keywords or a predicate (message, state) => boolean; got 5.");
    expect(() => make('')).toThrow(ConfigurationError);
    expect(() => make([])).toThrow(ConfigurationError);
    expect(make(['DONE', 'APPROVED']).participants).toEqual(['a']);
  });

  it('ends on a message predicate that sees the chat state', async () => {
    const a = talker('a', ['one', 'two', 'three']);
    const chat = createGroupChat({
      agents: [a.agent],
      speakerSelection: 'round_robin',
      terminate: (message, state) => message.content === 'two' && state.rounds === 2,
      maxRounds: 10,
    });
    expect(await chat.run('task').result).toMatchObject({ reason: 'terminate-message', rounds: 2 });
  });

  it('ends after maxRounds turns', async () => {
    const chat = createGroupChat({ agents: [talker('a', ['A']).agent], speakerSelection: 'round_robin', maxRounds: 3 });
    expect(await chat.run('task').result).toMatchObject({ reason: 'max-rounds', rounds: 3 });
  });

  it('ends on a handoff to terminate: a tool, a context condition, or afterWork', async () => {
    const byTool = createGroupChat({
      agents: [{ agent: talker('a', [{ toolCalls: [{ name: 'terminate_chat' }] }]).agent, handoffs: [{ to: 'terminate' }] }],
      speakerSelection: 'round_robin',
      maxRounds: 5,
    });
    expect(await byTool.run('task').result).toMatchObject({ reason: 'handoff-terminate', rounds: 1 });

    const byCondition = createGroupChat({
      agents: [{ agent: talker('a', ['A']).agent, handoffs: [{ to: 'terminate', when: (state) => state.stop === true }] }],
      speakerSelection: 'round_robin',
      sharedState: { stop: true },
      maxRounds: 5,
    });
    expect(await byCondition.run('task').result).toMatchObject({ reason: 'handoff-terminate', rounds: 0 });

    const byAfterWork = createGroupChat({
      agents: [{ agent: talker('a', ['A']).agent, afterWork: 'terminate' }],
      speakerSelection: 'round_robin',
      maxRounds: 5,
    });
    expect(await byAfterWork.run('task').result).toMatchObject({ reason: 'handoff-terminate', rounds: 1 });
  });

  it('ends when no participant may speak', async () => {
    const chat = createGroupChat({
      agents: [talker('a', ['A']).agent, talker('b', ['B']).agent],
      speakerSelection: 'round_robin',
      transitions: { allowed: { a: ['b'] } },
      maxRounds: 5,
    });
    expect(chat.warnings.map((warning) => warning.kind)).toEqual(['no-way-out']);
    expect(await chat.run('task').result).toMatchObject({ reason: 'no-eligible-speaker', rounds: 2, lastSpeaker: 'b' });
  });

  it('ends when a speaker produces nothing', async () => {
    const chat = createGroupChat({
      agents: [talker('a', ['A']).agent, talker('b', ['']).agent],
      speakerSelection: 'round_robin',
      maxRounds: 5,
    });
    expect(await chat.run('task').result).toMatchObject({ reason: 'empty-reply', rounds: 2, lastSpeaker: 'b' });
  });

  it("ends with 'returned-to-user' when afterWork gives the turn back and no person takes part", async () => {
    const chat = createGroupChat({ agents: [{ agent: talker('a', ['A']).agent, afterWork: 'user' }], speakerSelection: 'round_robin', maxRounds: 5 });
    expect(await chat.run('task').result).toMatchObject({ reason: 'returned-to-user', rounds: 1 });
  });

  it('ends when the signal is aborted, stopping the speaking agent', async () => {
    const slow = talker('a', [{ text: 'late', latencyMs: 5_000 }]);
    const chat = createGroupChat({ agents: [slow.agent], speakerSelection: 'round_robin', maxRounds: 5 });
    const controller = new AbortController();
    const run = chat.run('task', { signal: controller.signal });
    const events = record(run);
    setTimeout(() => controller.abort(), 20);
    const result = await run.result;
    expect(result).toMatchObject({ reason: 'aborted', rounds: 0 });
    expect(events.some((event) => event.type === 'agent.event' && event.event.type === 'model.request')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'chat.finished', reason: 'aborted' });
  });

  it('ends with an error when a speaker fails', async () => {
    const chat = createGroupChat({
      agents: [talker('a', [{ error: 'model crashed' }]).agent],
      speakerSelection: 'round_robin',
      maxRounds: 5,
    });
    const result = await chat.run('task').result;
    expect(result).toMatchObject({ reason: 'error', rounds: 1, error: { message: 'model crashed' } });
  });
});
