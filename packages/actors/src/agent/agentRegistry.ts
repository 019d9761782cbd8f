import { ConfigurationError } from '@agentchart/core';
import type { AgentConfig } from './createAgent.js';

/** The configuration behind each agent made by `createAgent`, for machines that run it as a child. */
const configs = new WeakMap<object, AgentConfig>();

/** Records the configuration of an agent made by `createAgent`. */
export function registerAgentConfig(agent: object, config: AgentConfig): void {
  configs.set(agent, config);
}

/**
 * The configuration of an agent made by `createAgent`, so another machine (a
 * group chat) can invoke the agent machine with it.
 *
 * @example
 * const config = agentConfigOf(createAgent({ name: 'a', model }));
 */
export function agentConfigOf(agent: object): AgentConfig {
  const config = configs.get(agent);
  if (config === undefined) {
    throw new ConfigurationError('Expected an agent made by createAgent(...), a humanAgent(...) or a group chat.', {});
  }
  return config;
}
