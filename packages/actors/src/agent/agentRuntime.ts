import type { AnyTool, ChatModel, CompiledToolRules, FunctionMiddleware, StateRecord } from '@agentchart/core';
import type { z } from 'zod';
import type { LiveToolSet } from './liveTools.js';
import type { RunBudgetSettings } from './runTokenBudget.js';

/**
 * The parts of a run that are code, not data: the model, the tools, the
 * middleware. Built for every run from its agent (and run options); never
 * persisted: a resumed run gets them again from the agent that resumes it.
 */
export interface AgentRuntime extends RunBudgetSettings {
  readonly agentName: string;
  readonly model: ChatModel;
  /** The agent's own tools (never mutated). */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** This run's live tool list: a copy of `tools` that tools change with `ctx.addTools` / `ctx.removeTools`. */
  readonly liveTools: LiveToolSet;
  /** Agent-level middleware, then run-level middleware. */
  readonly middleware: readonly FunctionMiddleware[];
  readonly instructions: string | undefined;
  readonly maxSteps: number;
  /** Tool calls a run may execute (`Infinity`: no limit). */
  readonly maxToolCalls: number;
  readonly maxConsecutiveErrors: number;
  readonly detailedErrors: boolean;
  /** The compiled tool rules; the agent runs their machine as its `toolRules` child. */
  readonly toolRules: CompiledToolRules | undefined;
  /** Checked on every write to the run's shared state. */
  readonly stateSchema?: z.ZodType<StateRecord> | undefined;
}
