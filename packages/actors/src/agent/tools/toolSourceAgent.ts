import { type AnyTool, ConfigurationError, type ErrorInfo, type StateRecord } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import { newRunId } from '../../ids.js';
import type { Agent } from '../agentTypes.js';
import { AGENT_INTERNALS, type InternalAgent, type ProvidesAgentInternals, agentInternals } from '../internalAgent.js';
import { type ApprovalRequest, type ApprovalState, pendingRequests } from '../machine/approvals.js';
import type { AgentRun } from '../run/agentRun.js';
import { deferredAgentRun } from '../run/deferredAgentRun.js';
import { followToolSources } from './followToolSources.js';
import type { ToolSourceAgent } from './agentToolSources.js';
import type { LoadedSourceTools, ToolSourceSet } from './toolSourceSet.js';

/**
 * An agent whose tools include tool sources. Each run loads the sources
 * first (the first load connects), then runs as an agent made from the
 * agent's own tools plus the sources' tools, with its rules compiled and its
 * `toolChoice` checked against exactly those names; that agent is kept while
 * the lists stay the same. Source list changes during a run reach it through
 * `followToolSources`. In a group chat it takes part as the agent made for
 * the last loaded list (before any load it cannot: `notLoaded` says why),
 * and the chat loads its sources itself (its protocol's `toolSources`).
 *
 * @example
 * const agent = agentWithToolSources('dev', ownTools, sources, (sourceTools) => createAgent({ ...options, tools: [...ownTools, ...sourceTools] }), 'Load its tools first.');
 */
export function agentWithToolSources(
  name: string,
  ownTools: readonly AnyTool[],
  sources: ToolSourceSet,
  makeAgent: (sourceTools: readonly AnyTool[]) => Agent,
  notLoaded: string,
  instructions?: string,
): Agent & ProvidesAgentInternals {
  let cached: { tools: readonly AnyTool[]; agent: Agent } | undefined;
  const agentFor = (loaded: LoadedSourceTools): Agent => {
    const same =
      cached !== undefined && cached.tools.length === loaded.tools.length && cached.tools.every((tool, index) => tool === loaded.tools[index]);
    if (!same || cached === undefined) {
      cached = { tools: loaded.tools, agent: makeAgent(loaded.tools) };
    }
    return cached.agent;
  };
  let loadError: ErrorInfo | undefined;
  const load = async (signal?: AbortSignal) => {
    try {
      const loaded = await sources.load(signal);
      const result = { loaded, agent: agentFor(loaded) };
      loadError = undefined;
      return result;
    } catch (error) {
      if (!signal?.aborted) loadError = toErrorInfo(error);
      throw error;
    }
  };
  // A group chat loads the sources when it starts and follows their changes (see `chatToolSources`).
  const toolSources: ToolSourceAgent = {
    instructions,
    sources,
    load: async (signal) => (await load(signal)).loaded,
    get loadError() {
      return loadError;
    },
  };
  /** A run handed out at once, started by `begin` on the agent made for the loaded tools, following the sources' changes. */
  const deferredRun = (
    runId: string,
    userSignal: AbortSignal | undefined,
    state: StateRecord | undefined,
    pending: readonly ApprovalRequest[],
    begin: (agent: Agent, signal: AbortSignal) => AgentRun,
  ): AgentRun =>
    deferredAgentRun(
      runId,
      async (signal) => {
        const { loaded, agent } = await load(signal);
        return () => {
          const run = begin(agent, signal);
          followToolSources(run, sources, loaded.bySource);
          return run;
        };
      },
      userSignal,
      state,
      pending,
    );
  const start: InternalAgent['start'] = (input, runOptions, internals) => {
    // A run kept in a store: the agent made for the loaded tools keeps it there (its own `run`).
    if (runOptions.store !== undefined)
      return deferredRun(newRunId(), runOptions.signal, runOptions.state, [], (agent, signal) => agent.run(input, { ...runOptions, signal }));
    const runId = internals.runId ?? newRunId();
    return deferredRun(runId, runOptions.signal, runOptions.state, [], (agent, signal) =>
      agentInternals(agent).start(input, { ...runOptions, signal }, { ...internals, runId }),
    );
  };
  const restore: InternalAgent['restore'] = (snapshot, resumeOptions, internals) => {
    const persistedId = (snapshot as { runId?: unknown } | null)?.runId;
    return deferredRun(
      typeof persistedId === 'string' ? persistedId : newRunId(),
      resumeOptions.signal,
      {},
      pendingInSnapshot(snapshot),
      (agent, signal) => agentInternals(agent).restore(snapshot, { ...resumeOptions, signal }, internals),
    );
  };
  return {
    name,
    instructions,
    get tools() {
      return cached?.agent.tools ?? ownTools;
    },
    get toolRules() {
      return cached?.agent.toolRules;
    },
    run: (input, runOptions = {}) => start(input, runOptions, {}),
    resume: (snapshot, resumeOptions = {}) => {
      // A run id with a store: the agent made for the loaded tools resumes it from the store.
      if (typeof snapshot === 'string')
        return deferredRun(newRunId(), resumeOptions.signal, {}, [], (agent, signal) => agent.resume(snapshot, { ...resumeOptions, signal }));
      return restore(snapshot, resumeOptions, {});
    },
    loadTools: async () => (await load()).agent.tools,
    close: () => sources.close(),
    [AGENT_INTERNALS]: (): InternalAgent => ({
      name,
      config: () => {
        if (cached === undefined) throw new ConfigurationError(notLoaded, {});
        return agentInternals(cached.agent).config();
      },
      toolSources,
      start,
      restore,
    }),
  };
}

/** The approvals a persisted run waits for (empty when the snapshot is not one: `resume` then fails with the reason). */
function pendingInSnapshot(snapshot: unknown): ApprovalRequest[] {
  const approvals = (snapshot as { machine?: { context?: { approvals?: ApprovalState } } } | null)?.machine?.context?.approvals;
  if (typeof approvals !== 'object' || approvals === null || !Array.isArray(approvals.requests)) return [];
  return pendingRequests({ requests: approvals.requests, decisions: approvals.decisions ?? {} });
}
