import type { AgentRuntime } from './agentContext.js';

/** What a run brings to its runtime beside the agent's configuration. */
type RunParts = Pick<AgentRuntime, 'liveTools' | 'middleware' | 'mirrorToolRules' | 'tokenBudget' | 'checkpoints' | 'livesForChat'>;

/**
 * A run's runtime from the agent's configuration (`base`), as one object
 * literal with every field in the same order: every runtime then shares one
 * hidden class, and each step reads `context.runtime.*` from it quickly
 * (spreading a rest-destructured configuration made a slow dictionary object).
 *
 * @example
 * const runtime = agentRuntime(config, { liveTools: new LiveToolSet(config.tools.values()), middleware: [] });
 */
export function agentRuntime(base: Omit<AgentRuntime, keyof RunParts> & Pick<AgentRuntime, 'tokenBudget'>, run: RunParts): AgentRuntime {
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
    stateSchema: base.stateSchema,
    snapshotKey: base.snapshotKey,
    // A run-level `maxTokens` overrides the agent's.
    tokenBudget: 'tokenBudget' in run ? run.tokenBudget : base.tokenBudget,
    prices: base.prices,
    checkpoints: run.checkpoints,
    livesForChat: run.livesForChat ?? false,
  };
}
