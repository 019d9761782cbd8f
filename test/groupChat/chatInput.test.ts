import { UnknownSpeakerError, createAgent, createGroupChat } from '@agentchart/actors';
import { ConfigurationError, type Message } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

describe('chat.run input', () => {
  it('rejects a message that is not a valid message, naming it and saying how to build one', () => {
    const agent = createAgent({ name: 'a', model: scriptedModel([{ text: 'hi' }]) });
    const chat = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 });
    const run = () => chat.run([{ role: 'user', content: 'Hi' }, { role: 'bogus', content: 'x' } as unknown as Message]);
    expect(run).toThrowError(ConfigurationError);
    expect(run).toThrowError(/^chat\.run\(input\): message 1 is not a valid message \(role: .*\)\. Build messages with msg\.user/);
  });
});

describe('chat.run input messages attributed to someone who is not a participant', () => {
  const makeChat = () => {
    const alice = createAgent({ name: 'alice', model: scriptedModel([{ text: 'On it.' }]) });
    const bob = createAgent({ name: 'bob', model: scriptedModel([{ text: 'Agreed.' }]) });
    return createGroupChat({ agents: [alice, bob], speakerSelection: 'round_robin', maxRounds: 3 });
  };
  const transcript: Message[] = [
    { role: 'user', content: 'Plan the offsite.' },
    { role: 'assistant', name: 'Chairperson', content: 'Let us begin.' },
    { role: 'assistant', name: 'alice', content: 'Lisbon?' },
    { role: 'user', name: 'unknown', content: 'Make it cheap.' },
  ];

  it('are refused with UnknownSpeakerError naming each unknown speaker and its first message', () => {
    const chat = makeChat();
    let error: unknown;
    try {
      chat.run(transcript);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(UnknownSpeakerError);
    expect((error as UnknownSpeakerError).code).toBe('GROUP_CHAT_SPEAKER_UNKNOWN');
    expect((error as UnknownSpeakerError).message).toBe(
      'chat.run(input): "Chairperson" (message 1), "unknown" (message 3) are not participants of this chat (participants: alice, bob). ' +
        "Give such messages a participant's name, remove their `name` to make them context, " +
        "or pass { unknownSpeakers: 'context' } to keep them as context that starts no turn.",
    );
    expect((error as UnknownSpeakerError).details).toEqual({
      speakers: [
        { name: 'Chairperson', index: 1 },
        { name: 'unknown', index: 3 },
      ],
      participants: ['alice', 'bob'],
    });
  });

  it("with unknownSpeakers: 'context' they are kept as context that starts no turn", async () => {
    const result = await makeChat().run(transcript, { unknownSpeakers: 'context' }).result;
    expect(result.messages.slice(0, 4)).toEqual(transcript);
    expect(result.turns.map(({ speaker, start }) => ({ speaker, start }))).toEqual([
      { speaker: 'alice', start: 2 },
      { speaker: 'bob', start: 4 },
      { speaker: 'alice', start: 5 },
    ]);
  });

  it('an unknown unknownSpeakers value names the option', () => {
    expect(() => makeChat().run('Hi', { unknownSpeakers: 'ignore' as never })).toThrow(
      "chat.run(input, options): unknownSpeakers must be 'refuse' or 'context'; got \"ignore\".",
    );
  });
});
