import { type GroupChatOptions, compileTransitions, createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { talker } from './chatTestKit.js';

const alice = talker('alice', ['Hi.']).agent;
const bob = talker('bob', ['Hello.']).agent;

/** The error `createGroupChat` throws for these options (as a JavaScript or JSON caller could pass them). */
function refusal(overrides: Record<string, unknown>): Error {
  const options = { agents: [alice, bob], speakerSelection: 'round_robin', maxRounds: 4, ...overrides } as unknown as GroupChatOptions;
  try {
    createGroupChat(options);
  } catch (error) {
    return error as Error;
  }
  throw new Error('createGroupChat accepted the options');
}

describe('createGroupChat checks the shape of its options (one schema, JavaScript callers included)', () => {
  it('allowRepeatSpeaker: {} is a ConfigurationError naming the option, not a TypeError', () => {
    const error = refusal({ allowRepeatSpeaker: {} });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).not.toBeInstanceOf(TypeError);
    expect((error as ConfigurationError).code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toBe(
      "createGroupChat(options): allowRepeatSpeaker must be true, false or a list of the participants who may speak twice in a row, e.g. ['alice']; got {}.",
    );
    expect((error as ConfigurationError).details.option).toBe('allowRepeatSpeaker');
  });

  it('allowRepeatSpeaker: "alice" is refused instead of being read letter by letter (which let nobody repeat)', () => {
    const error = refusal({ allowRepeatSpeaker: 'alice' });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      'createGroupChat(options): allowRepeatSpeaker must be true, false or a list of the participants who may speak twice in a row, e.g. [\'alice\']; got "alice".',
    );
    const chat = createGroupChat({ agents: [alice, bob], speakerSelection: 'round_robin', maxRounds: 4, allowRepeatSpeaker: ['alice'] });
    expect(chat.transitions.config.states?.alice?.on).toHaveProperty('alice');
    expect(chat.transitions.config.states?.bob?.on).not.toHaveProperty('bob');
  });

  it('compileTransitions, exported on its own, checks the same settings', () => {
    expect(() => compileTransitions(['alice'], { allowRepeatSpeaker: 'alice' as never })).toThrow(
      'compileTransitions(participants, settings): allowRepeatSpeaker must be true, false or a list of the participants who may speak twice in a row, e.g. [\'alice\']; got "alice".',
    );
  });

  it('a maxRounds that is not a number, or missing, names maxRounds', () => {
    expect(refusal({ maxRounds: '4' }).message).toBe('createGroupChat(options): maxRounds must be a whole number of at least 1; got "4".');
    expect(refusal({ maxRounds: undefined }).message).toBe(
      'createGroupChat(options): maxRounds must be a whole number of at least 1; got undefined.',
    );
    expect(refusal({ maxRounds: 0 })).toBeInstanceOf(ConfigurationError);
  });

  it('wrong shapes anywhere in the options name the option and what it takes', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ agents: [] }, 'agents must be a list of at least one participant; got [].'],
      [{ agents: 'alice' }, 'agents must be a list of at least one participant; got "alice".'],
      [
        { agents: [alice, 5] },
        "agents[1] must be an agent made by createAgent(...), a humanAgent(...), a group chat, a custom participant ({ kind: 'custom', name, takeTurn }), or { agent, handoffs?, afterWork?, description? }; got 5.",
      ],
      [{ agents: [{ agent: alice, handoffs: 'bob' }, bob] }, 'agents[0].handoffs must be a list of handoffs, e.g. [{ to: \'critic\' }]; got "bob".'],
      [
        { agents: [{ agent: alice, handoffs: [{ to: 'bob', when: true }] }, bob] },
        'agents[0].handoffs[0].when must be a predicate (state) => boolean; got true.',
      ],
      [{ initialSpeaker: [] }, "initialSpeaker must be a participant's name or a non-empty list of names; got []."],
      [{ views: 'all' }, "views must be 'broadcast' or 'isolated'; got \"all\"."],
      [{ sharedState: [] }, 'sharedState must be an object of initial values, e.g. { sources: [] }; got [].'],
      [
        { speakerSelection: { method: 'auto', model: scriptedModel([]), maxRetries: -1 } },
        'speakerSelection.maxRetries must be a whole number of at least 0; got -1.',
      ],
      [
        { speakerSelection: { method: 'auto' } },
        'speakerSelection.model must be a ChatModel, e.g. scriptedModel(...), ollama(...) or openai(...); got undefined.',
      ],
      [{ speakerSelection: 'auto' }, "speakerSelection 'auto' needs a model to pick with: use { method: 'auto', model }."],
    ];
    for (const [overrides, message] of cases) {
      const error = refusal(overrides);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(`createGroupChat(options): ${message}`);
    }
    expect(() => createGroupChat(undefined as never)).toThrow(
      'createGroupChat(options) must be an options object: { agents, speakerSelection, maxRounds, ... }; got undefined.',
    );
  });

  it('speaker-selection names are exact: a wrong-case name is refused, and the error lists the valid ones', () => {
    const error = refusal({ speakerSelection: 'RounD_roBin' });
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      "createGroupChat(options): speakerSelection must be one of 'round_robin', 'random', 'manual', { method: 'random', seed }, " +
        '{ method: \'auto\', model } or a function (names are exact, lower case); got "RounD_roBin".',
    );
    expect(refusal({ speakerSelection: { method: 'Random' } }).message).toContain("must be one of 'round_robin', 'random', 'manual'");
  });

  it('the participant names user, manager and terminate are reserved', () => {
    for (const name of ['user', 'manager', 'terminate']) {
      const reserved = createAgent({ name, model: scriptedModel([]) });
      const error = refusal({ agents: [alice, reserved] });
      expect(error).toBeInstanceOf(ConfigurationError);
      expect(error.message).toBe(`A participant may not be named "${name}": terminate, user, manager are reserved for selection and handoffs.`);
    }
    expect(refusal({ agents: [alice, humanAgent({ name: 'user' })] }).message).toContain('may not be named "user"');
  });
});
