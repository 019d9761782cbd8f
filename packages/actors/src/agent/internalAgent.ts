import { ConfigurationError, type Message } from '@agentchart/core';
import type { AgentConfig, ResumeOptions, RunOptions } from './agentTypes.js';
import type { RunCheckpoints } from './machine/agentContext.js';
import type { AgentRun } from './run/agentRun.js';
import type { ToolSourceAgent } from './tools/agentToolSources.js';

/**
 * What only the layers above an agent hand its runs: never part of the
 * public options. A run kept in a store takes the id the store created it
 * under and the store's checkpoint hooks; a run whose handle was returned
 * before its actor existed (tool sources loading) takes the id it was given.
 */
export interface RunInternals {
  /** The run id the run must take (default: a new one). */
  readonly runId?: string | undefined;
  /** Called at the steps the machine marks for a checkpoint (a run kept in a store). */
  readonly checkpoints?: RunCheckpoints | undefined;
}

/**
 * An agent made by `createAgent`, as the other layers reach it: its
 * configuration (what a chat builds its turns from), its tool sources, and
 * runs started or resumed with `RunInternals`.
 */
export interface InternalAgent {
  readonly name: string;
  /** The agent's configuration; throws `ConfigurationError` while it cannot have one (tool sources not loaded yet). */
  config(): AgentConfig;
  /** An agent with tool sources: what a chat loads before its first turn and follows while it runs. */
  readonly toolSources: ToolSourceAgent | undefined;
  /** `agent.run`, with the internals. */
  start(input: string | readonly Message[], options: RunOptions, internals: RunInternals): AgentRun;
  /** `agent.resume` of a persisted run (not a run id), with the internals. */
  restore(snapshot: unknown, options: ResumeOptions, internals: RunInternals): AgentRun;
}

/** The key under which an agent made by `createAgent` gives its internals (not a public API). */
export const AGENT_INTERNALS: unique symbol = Symbol('agentchart.agentInternals');

/** An object that gives its agent internals (an agent made by `createAgent`). */
export interface ProvidesAgentInternals {
  [AGENT_INTERNALS](): InternalAgent;
}

/**
 * The internals of an agent made by `createAgent`, or undefined for anything else.
 *
 * @example
 * const internal = internalAgentOf(participant);
 * if (internal !== undefined) internal.config().snapshotKey;
 */
export function internalAgentOf(value: unknown): InternalAgent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const provider = (value as Partial<ProvidesAgentInternals>)[AGENT_INTERNALS];
  return typeof provider === 'function' ? provider.call(value) : undefined;
}

/**
 * The internals of an agent made by `createAgent`; throws `ConfigurationError` for anything else.
 *
 * @example
 * const config = agentInternals(agent).config();
 */
export function agentInternals(agent: { readonly name: string }): InternalAgent {
  const internal = internalAgentOf(agent);
  if (internal === undefined) throw new ConfigurationError(`Expected an agent made by createAgent(...); "${agent.name}" is not one.`, {});
  return internal;
}
