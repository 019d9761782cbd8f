import { ConfigurationError } from '@agentchart/core';
import type { AgentConfig } from './createAgent.js';

/** The configuration behind each agent made by `createAgent`, for machines that run it as a child. */
const configs = new WeakMap<object, AgentConfig>();

/** Why an agent made by `createAgent` has no configuration yet (its tool sources are not loaded). */
const pending = new WeakMap<object, string>();

/** Records the configuration of an agent made by `createAgent`. */
export function registerAgentConfig(agent: object, config: AgentConfig): void {
  configs.set(agent, config);
}

/** Records that an agent's configuration comes later (`message` says what to do meanwhile). */
export function registerPendingAgent(agent: object, message: string): void {
  pending.set(agent, message);
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
    const reason = pending.get(agent);
    if (reason !== undefined) throw new ConfigurationError(reason, {});
    throw new ConfigurationError('Expected an agent made by createAgent(...), a humanAgent(...) or a group chat.', {});
  }
  return config;
}
