import { type AnyTool, ConfigurationError } from '@agentchart/core';
import { agentConfigOf } from '../../participant/participantOf.js';
import { PARTICIPANT_PROTOCOL, type ProvidesParticipantProtocol } from '../../participant/participantProtocol.js';
import { newRunId } from '../../ids.js';
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
 * the last loaded list; before any load it cannot (`notLoaded` says why).
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
  const load = async (signal?: AbortSignal) => {
    const loaded = await sources.load(signal);
    return { loaded, agent: agentFor(loaded) };
  };
  return {
    name,
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
    }),
  };
}

/** The approvals a persisted run waits for (empty when the snapshot is not one: `resume` then fails with the reason). */
function pendingInSnapshot(snapshot: unknown): ApprovalRequest[] {
  const approvals = (snapshot as { machine?: { context?: { approvals?: ApprovalState } } } | null)?.machine?.context?.approvals;
  if (typeof approvals !== 'object' || approvals === null || !Array.isArray(approvals.requests)) return [];
  return pendingRequests({ requests: approvals.requests, decisions: approvals.decisions ?? {} });
}
