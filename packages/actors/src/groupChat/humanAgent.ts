import { ConfigurationError } from '@agentchart/core';
import { PARTICIPANT_NAME_PATTERN } from './participantName.js';

/** A person taking part in a group chat; their turns come through the run handle's `say(text)`. */
export interface HumanAgent {
  readonly kind: 'human';
  readonly name: string;
  readonly description: string | undefined;
}

/**
 * A human participant. When the chat picks them, it waits (and can be
 * persisted with `run.snapshot()`) until `run.say(text)` gives their reply.
 *
 * @example
 * const alice = humanAgent({ name: 'alice', description: 'The product owner.' });
 * const run = createGroupChat({ agents: [alice, writer], speakerSelection: 'round_robin', maxRounds: 4 }).run('Draft a release note.');
 * run.events$.subscribe((event) => { if (event.type === 'human.waiting') run.say('Looks good, ship it.'); });
 */
export function humanAgent(options: { name: string; description?: string }): HumanAgent {
  if (typeof options.name !== 'string' || !PARTICIPANT_NAME_PATTERN.test(options.name)) {
    throw new ConfigurationError(`Human participant name ${JSON.stringify(options.name)} is invalid: use 1 to 64 letters, digits, "_" or "-".`, {
      name: options.name,
    });
  }
  return { kind: 'human', name: options.name, description: options.description };
}
