import type { Agent, AgentOptions } from '../agent/agentTypes.js';
import { configuredAgent } from '../agent/configuredAgent.js';
import { agentStoreRuns } from '../durable/storedRuns.js';

/**
 * Creates an agent that calls typed tools in a loop against a model. A run
 * given a `store` is kept there (`durable/`); every other run is the same
 * agent machine in memory.
 *
 * @example
 * const agent = createAgent({
 *   name: 'calculator',
 *   model: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: '5' }]),
 *   instructions: 'Use the tools to compute.',
 *   tools: [add],
 * });
 * const { text } = await agent.run('What is 2 + 3?').result; // '5'
 */
export function createAgent(options: AgentOptions): Agent {
  return configuredAgent(options, agentStoreRuns);
}
