import { type AnyTool, ConfigurationError, type ErrorInfo } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import { newRunId } from '../../ids.js';
import { agentConfigOf } from '../../participant/participantOf.js';
import { PARTICIPANT_PROTOCOL, type ProvidesParticipantProtocol } from '../../participant/participantProtocol.js';
import type { Agent } from '../createAgent.js';
import { type ApprovalRequest, type ApprovalState, pendingRequests } from '../machine/approvals.js';
import { deferredAgentRun } from '../run/deferredAgentRun.js';
import { followToolSources } from './followToolSources.js';
import { RUN_ID_OPTION } from '../run/runIdOption.js';
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
): Agent & ProvidesParticipantProtocol {
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
  return {
    name,
    instructions,
    get tools() {
      return cached?.agent.tools ?? ownTools;
    },
    get toolRules() {
      return cached?.agent.toolRules;
    },
    run: (input, runOptions = {}) => {
      const runId = newRunId();
      return deferredAgentRun(
        runId,
        async (signal) => {
          const { loaded, agent } = await load(signal);
          return () => {
            const run = agent.run(input, { ...runOptions, signal, [RUN_ID_OPTION]: runId } as typeof runOptions);
            followToolSources(run, sources, loaded.bySource);
            return run;
          };
        },
        runOptions.signal,
        runOptions.state,
      );
    },
    resume: (snapshot, resumeOptions = {}) => {
      const persistedId = (snapshot as { runId?: unknown } | null)?.runId;
      return deferredAgentRun(
        typeof persistedId === 'string' ? persistedId : newRunId(),
        async (signal) => {
          const { loaded, agent } = await load(signal);
          return () => {
            const run = agent.resume(snapshot, { ...resumeOptions, signal });
            followToolSources(run, sources, loaded.bySource);
            return run;
          };
        },
        resumeOptions.signal,
        {},
        pendingInSnapshot(snapshot),
      );
    },
    loadTools: async () => (await load()).agent.tools,
    close: () => sources.close(),
    [PARTICIPANT_PROTOCOL]: () => ({
      kind: 'agent',
      name,
      config: () => {
        if (cached === undefined) throw new ConfigurationError(notLoaded, {});
        return agentConfigOf(cached.agent);
      },
      toolSources,
    }),
  };
}

/**
 * What a group chat needs of an agent with tool sources (`createAgent({ toolSources })`): its
 * instructions (to describe it before its sources are loaded), its sources (to follow their list
 * changes) and `load`, which loads them, so that the agent's configuration has their tools from then on.
 */
export interface ToolSourceAgent {
  readonly instructions: string | undefined;
  readonly sources: ToolSourceSet;
  load(signal?: AbortSignal): Promise<LoadedSourceTools>;
  /** Why the last load failed (a list the agent's rules cannot take, two sources offering one name); undefined after a good one. */
  readonly loadError: ErrorInfo | undefined;
}

/** The approvals a persisted run waits for (empty when the snapshot is not one: `resume` then fails with the reason). */
function pendingInSnapshot(snapshot: unknown): ApprovalRequest[] {
  const approvals = (snapshot as { machine?: { context?: { approvals?: ApprovalState } } } | null)?.machine?.context?.approvals;
  if (typeof approvals !== 'object' || approvals === null || !Array.isArray(approvals.requests)) return [];
  return pendingRequests({ requests: approvals.requests, decisions: approvals.decisions ?? {} });
}
