import { type AgentOptions, createAgent } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

/** The error `createAgent` throws for these options (as a JavaScript or JSON caller could pass them). */
function refusal(options: unknown): Error {
  try {
    createAgent(options as AgentOptions);
  } catch (error) {
    return error as Error;
  }
  throw new Error('createAgent accepted the options');
}

describe('createAgent checks the shape of its options (one schema, JavaScript callers included)', () => {
  const model = scriptedModel([]);

  it('names the option, what it takes and what it got; never a TypeError', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'a', model, maxSteps: '3' }, 'createAgent({ name: "a" }): maxSteps must be a whole number of at least 1; got "3".'],
      [{ name: 'a', model, maxToolCalls: 2.5 }, 'createAgent({ name: "a" }): maxToolCalls must be a whole number of at least 1; got 2.5.'],
      [
        { name: 'a', model, maxConsecutiveErrors: 0 },
        'createAgent({ name: "a" }): maxConsecutiveErrors must be a whole number of at least 1; got 0.',
      ],
      [{ name: 'a', model, detailedErrors: 'no' }, 'createAgent({ name: "a" }): detailedErrors must be true or false; got "no".'],
      [{ name: 'a' }, 'createAgent({ name: "a" }): model must be a ChatModel, e.g. scriptedModel(...), ollama(...) or openai(...); got undefined.'],
      [
        { name: 'a b', model },
        'createAgent({ name: "a b" }): name must be 1 to 64 letters, digits, "_" or "-" (providers reject other names); got "a b".',
      ],
      [{ model }, 'createAgent(options): name must be 1 to 64 letters, digits, "_" or "-" (providers reject other names); got undefined.'],
      [
        { name: 'a', model, stateSchema: { topic: 'string' } },
        'createAgent({ name: "a" }): stateSchema must be a zod schema, e.g. z.object({ topic: z.string() }); got {"topic":"string"}.',
      ],
      [
        { name: 'a', model, inspect: 'console' },
        'createAgent({ name: "a" }): inspect must be an XState inspection observer or a function; got "console".',
      ],
      [
        { name: 'a', model, toolChoice: { mode: 'none', allowedTools: ['x'] } },
        'createAgent({ name: "a" }): toolChoice.allowedTools contradicts mode \'none\'',
      ],
    ];
    for (const [options, message] of cases) {
      const error = refusal(options);
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as ConfigurationError).code).toBe('CONFIGURATION_INVALID');
      expect(error.message.startsWith(message)).toBe(true);
    }
    expect(refusal(undefined).message).toBe(
      'createAgent(options) must be an options object: { name, model, instructions?, tools?, ... }; got undefined.',
    );
    expect(refusal(undefined)).not.toBeInstanceOf(TypeError);
  });

  it('maxConsecutiveErrors: 0 is refused, not read as 1 (as Agent Framework reads it)', () => {
    expect(refusal({ name: 'a', model, maxConsecutiveErrors: 0 })).toBeInstanceOf(ConfigurationError);
    expect(() => createAgent({ name: 'a', model, maxConsecutiveErrors: 1 })).not.toThrow();
  });
});
