import type { AnyTool, ChatModel, CompiledToolRules, FunctionMiddleware, StateRecord, TokenBudget } from '@agentchart/core';
import type { z } from 'zod';
import type { LiveToolSet } from '../tools/liveTools.js';
import type { SnapshotKey } from '../run/snapshotSignature.js';
import type { RunBudgetSettings } from './runTokenBudget.js';
import type { RunCheckpoints } from './runCheckpoints.js';

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
  /**
   * The compiled tool rules. The agent decides with their program (the
   * engine functions); see `mirrorToolRules` for their machine.
   */
  readonly toolRules: CompiledToolRules | undefined;
  /**
   * Whether the run keeps the rules' generated machine as its `toolRules`
   * child, moved by every event the agent's gate applies: every new run with
   * rules, watched or not (a run resumed from a snapshot has it when the
   * snapshot does). The agent decides with the program; the child shows it.
   */
  readonly mirrorToolRules?: boolean;
  /** Whether the run is a resident agent's turn in a group chat: its end goes back to `idle` for the next turn (see `agentTurn.ts`). */
  readonly livesForChat?: boolean;
  /** Whether an inspector observes the run (the run's shared state is then shown from its start). */
  readonly inspected?: boolean;
  /** Checked on every write to the run's shared state. */
  readonly stateSchema?: z.ZodType<StateRecord> | undefined;
  /** Signs what `run.persist()` writes and is required by `agent.resume` (see `snapshotSignature.ts`). */
  readonly snapshotKey?: SnapshotKey | undefined;
  /**
   * Set only for a run kept in a store (docs/durability.md): the step calls it
   * at model reply, batch start, batch end and wait (see `runCheckpoints.ts`).
   */
  readonly checkpoints?: RunCheckpoints | undefined;
}

/**
 * A run's runtime from the agent's configuration (`base`), as one object
 * literal with every field in the same order: every runtime then shares one
 * hidden class, and each step reads `context.runtime.*` from it quickly
 * (spreading a rest-destructured configuration made a slow dictionary object).
 *
 * @example
 * const runtime = agentRuntime(config, { liveTools: new LiveToolSet(config.tools.values()), middleware: [] });
 */
export function agentRuntime(
  base: Omit<AgentRuntime, 'liveTools' | 'middleware' | 'mirrorToolRules' | 'inspected' | 'checkpoints' | 'livesForChat'>,
  run: {
    liveTools: LiveToolSet;
    middleware: readonly FunctionMiddleware[];
    mirrorToolRules?: boolean;
    /** Defaults to `mirrorToolRules` (the rules' mirror is kept for inspected runs). */
    inspected?: boolean;
    tokenBudget?: TokenBudget | undefined;
    checkpoints?: RunCheckpoints | undefined;
    livesForChat?: boolean;
  },
): AgentRuntime {
  return {
    agentName: base.agentName,
    model: base.model,
    tools: base.tools,
    liveTools: run.liveTools,
    middleware: run.middleware,
    instructions: base.instructions,
    maxSteps: base.maxSteps,
    maxToolCalls: base.maxToolCalls,
    maxConsecutiveErrors: base.maxConsecutiveErrors,
    detailedErrors: base.detailedErrors,
    toolRules: base.toolRules,
    mirrorToolRules: run.mirrorToolRules ?? false,
    inspected: run.inspected ?? run.mirrorToolRules ?? false,
    stateSchema: base.stateSchema,
    snapshotKey: base.snapshotKey,
    // A run-level `maxTokens` overrides the agent's.
    tokenBudget: 'tokenBudget' in run ? run.tokenBudget : base.tokenBudget,
    prices: base.prices,
    checkpoints: run.checkpoints,
    livesForChat: run.livesForChat ?? false,
  };
}
