import type { Message, ToolModeSetting } from '@agentchart/core';
import type { RunSharedStateInput } from '../run/runSharedState.js';
import type { AgentRuntime } from './agentContext.js';

/** What the agent machine starts from. */
export interface AgentMachineInput {
  runtime: AgentRuntime;
  runId: string;
  messages: Message[];
  toolMode: ToolModeSetting;
  /** Initial values of the run's own shared state, or the group chat's shared state to use instead. */
  state?: RunSharedStateInput;
}
