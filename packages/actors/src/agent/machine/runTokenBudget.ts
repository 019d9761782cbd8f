import { type ChatModel, type PriceTable, type TokenBudget, type Usage, budgetSpent, costOf } from '@agentchart/core';

/** What the budget reads of a run (its context has these): its runtime's settings and the usage so far. */
interface BudgetedRun {
  readonly runtime: RunBudgetSettings & { readonly model: ChatModel };
  readonly usage: Usage;
}

/**
 * The agent machine's one hook for token budgets: whether the run's usage so
 * far has reached its `maxTokens`. Checked after a step (a model call and its
 * tool batch), never in the middle of one, so the transcript stays whole.
 */
export function tokenBudgetSpent(context: BudgetedRun): boolean {
  const budget = context.runtime.tokenBudget;
  return budget !== undefined && budgetSpent(budget, context.usage);
}

/** A run's token budget and price table (both optional), as its runtime carries them. */
export interface RunBudgetSettings {
  tokenBudget?: TokenBudget | undefined;
  prices?: PriceTable | undefined;
}

/** What the run's usage cost by its price table, when the table prices its model. */
export function runCost(context: BudgetedRun): number | undefined {
  return costOf(context.runtime.prices, context.runtime.model.modelName, context.usage);
}
