import { ConfigurationError } from '@agentchart/core';
import type { AgentRuntime } from './agentRuntime.js';

/** The runtime behind each agent made by `createAgent`, for actors that run it as a child. */
const runtimes = new WeakMap<object, AgentRuntime>();

/** Records the runtime of an agent made by `createAgent`. */
export function registerAgentRuntime(agent: object, runtime: AgentRuntime): void {
  runtimes.set(agent, runtime);
}

/**
 * The runtime of an agent made by `createAgent`, so another machine (a group
 * chat) can invoke the agent machine with it.
 *
 * @example
 * const runtime = agentRuntimeOf(createAgent({ name: 'a', model }));
 */
export function agentRuntimeOf(agent: object): AgentRuntime {
  const runtime = runtimes.get(agent);
  if (runtime === undefined) {
    throw new ConfigurationError('Expected an agent made by createAgent(...), a humanAgent(...) or a group chat.', {});
  }
  return runtime;
}
