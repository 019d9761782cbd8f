import type { AnyTool, ChatModel, StateRecord, ToolChoice, ToolSpec } from '@agentchart/core';
import type { z } from 'zod';

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
  /** Checked on every write to the run's shared state. */
  readonly stateSchema?: z.ZodType<StateRecord> | undefined;
}
