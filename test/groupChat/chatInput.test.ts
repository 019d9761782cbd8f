import { createAgent, createGroupChat } from '@agentchart/actors';
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
