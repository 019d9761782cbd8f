import { type TokenBudget, type TokenBudgetOption, budgetSpent, remainingBudget, tighterBudget } from '@agentchart/core';
import { addUsage } from '@agentchart/core/internal';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { ChatSpend, ManagerContext } from './managerContext.js';
import type { TurnOutcome } from '../participant/turnOutcome.js';

/**
 * A chat's token budget: every turn's usage (an agent's run, a nested chat)
 * is added up; once the chat's `maxTokens` is reached the chat ends with
 * reason `token-budget` before the next speaker is chosen, and the speaking
 * agent's run (or nested chat) gets what is left as its own budget, so it
 * ends after the step that spends it.
 */

/** Whether the chat's usage so far has reached its budget. */
export function chatBudgetSpent(context: Pick<ManagerContext, 'run' | 'spend'>): boolean {
  const budget = context.run.tokenBudget;
  return budget !== undefined && budgetSpent(budget, context.spend.usage);
}

/** The chat's usage and cost after a turn. */
export function countTurn(spend: ChatSpend, outcome: TurnOutcome): ChatSpend {
  const usage = outcome.usage === undefined ? spend.usage : addUsage(spend.usage, outcome.usage);
  const cost = outcome.cost === undefined ? spend.cost : (spend.cost ?? 0) + outcome.cost;
  return { usage, cost };
}

/** What is left of the chat's budget, as a budget for the next turn (`undefined` without one). */
export function turnBudget(context: Pick<ManagerContext, 'run' | 'spend'>): TokenBudget | undefined {
  const budget = context.run.tokenBudget;
  return budget === undefined ? undefined : remainingBudget(budget, context.spend.usage);
}

/** An agent's runtime for its turn: the tighter of its own budget and the chat's rest, the chat's prices if it has some. */
export function turnRuntime(runtime: AgentRuntime, context: Pick<ManagerContext, 'run' | 'spend' | 'runtime'>): AgentRuntime {
  const { prices } = context.runtime;
  const rest = turnBudget(context);
  if (rest === undefined && prices === undefined) return runtime;
  return { ...runtime, tokenBudget: tighterBudget(runtime.tokenBudget, rest), prices: prices ?? runtime.prices };
}

/** The chat's rest as a nested chat's `maxTokens` option (its caps without the unlimited ones). */
export function nestedMaxTokens(context: Pick<ManagerContext, 'run' | 'spend'>): TokenBudgetOption | undefined {
  const rest = turnBudget(context);
  if (rest === undefined) return undefined;
  const option: { total?: number; input?: number; output?: number } = {};
  for (const key of ['total', 'input', 'output'] as const) if (Number.isFinite(rest[key])) option[key] = Math.max(1, rest[key]);
  return option;
}

/** What a chat run starts from. */
export const noSpend = (): ChatSpend => ({ usage: { inputTokens: 0, outputTokens: 0 }, cost: undefined });
