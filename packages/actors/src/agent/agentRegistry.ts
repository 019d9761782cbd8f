import { ConfigurationError, type ErrorInfo } from '@agentchart/core';
import type { AgentConfig } from './createAgent.js';
import type { LoadedSourceTools, ToolSourceSet } from './tools/toolSourceSet.js';

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

/**
 * What a group chat needs of an agent with tool sources (`createAgent({ toolSources })`): its
 * instructions (to describe it before its sources are loaded), its sources (to follow their list
 * changes) and `load`, which loads them and registers the configuration with their tools, so that
 * `agentConfigOf(agent)` is that configuration from then on.
 */
export interface ToolSourceAgent {
  readonly instructions: string | undefined;
  readonly sources: ToolSourceSet;
  load(signal?: AbortSignal): Promise<LoadedSourceTools>;
  /** Why the last load failed (a list the agent's rules cannot take, two sources offering one name); undefined after a good one. */
  readonly loadError: ErrorInfo | undefined;
}

const toolSourceAgents = new WeakMap<object, ToolSourceAgent>();

/** Records that an agent has tool sources (see `ToolSourceAgent`). */
export function registerToolSourceAgent(agent: object, entry: ToolSourceAgent): void {
  toolSourceAgents.set(agent, entry);
}

/**
 * The tool sources of an agent made by `createAgent({ toolSources })`, or undefined for any other participant.
 *
 * @example
 * const entry = toolSourceAgentOf(agent);
 * if (entry) await entry.load(); // agentConfigOf(agent) now has the sources' tools
 */
export function toolSourceAgentOf(agent: object): ToolSourceAgent | undefined {
  return toolSourceAgents.get(agent);
}
