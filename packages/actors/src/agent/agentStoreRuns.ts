import type { Message, RunStore } from '@agentchart/core';
import type { ResumeOptions, RunOptions } from './agentTypes.js';
import type { InternalAgent } from './internalAgent.js';
import type { AgentRun } from './run/agentRun.js';

/**
 * How an agent's runs with `{ store }` are kept in the store: given to the
 * agent by the layer that keeps runs (`durable/`, handed in by the
 * `createAgent` facade), so the agent knows nothing of stores. The stored run
 * then runs the agent through `InternalAgent.start`, like any other run.
 */
export interface AgentStoreRuns {
  /** `agent.run(input, { store })`: the run at once, started once the store created it. */
  run(agent: InternalAgent, input: string | readonly Message[], options: RunOptions & { store: RunStore }): AgentRun;
  /** `agent.resume(runId, { store })`: the run at once, going on once it was loaded. */
  resume(agent: InternalAgent, runId: string, options: ResumeOptions & { store: RunStore }): AgentRun;
}
