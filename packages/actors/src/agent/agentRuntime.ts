import type { AnyTool, ChatModel, ToolChoice, ToolSpec } from '@agentchart/core';

/**
 * The parts of an agent that are code, not data: the model, the tools.
 * Built once per agent and shared by its runs; never persisted (a resumed
 * run gets them again from the agent that resumes it).
 */
export interface AgentRuntime {
  readonly agentName: string;
  readonly model: ChatModel;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly instructions: string | undefined;
  readonly toolChoice: ToolChoice;
  readonly maxSteps: number;
  /**
   * Tools whose successful call ends the run once its batch has settled,
   * without another model call (a group chat's handoff tools).
   */
  readonly endTurnTools?: ReadonlySet<string>;
}
