import { ConfigurationError } from './errors.js';
import type { Usage } from './messages.js';

/**
 * How many tokens a run or a chat may use, counted from the usage its models
 * report: a number caps input + output together; an object caps the total,
 * the input and the output tokens each (any of them).
 *
 * @example
 * createAgent({ name: 'a', model, maxTokens: 20_000 });
 * createAgent({ name: 'a', model, maxTokens: { input: 50_000, output: 4_000 } });
 */
export type TokenBudgetOption = number | { total?: number; input?: number; output?: number };

/** A token budget, normalized: `Infinity` where there is no cap. */
export interface TokenBudget {
  readonly total: number;
  readonly input: number;
  readonly output: number;
}

/**
 * Checks a `maxTokens` option and normalizes it; `undefined` for no budget.
 * Throws `ConfigurationError` (code `CONFIGURATION_INVALID`) for anything but
 * whole numbers of at least 1.
 *
 * @example
 * tokenBudget({ output: 500 }, 'maxTokens'); // { total: Infinity, input: Infinity, output: 500 }
 */
export function tokenBudget(option: TokenBudgetOption | undefined, where: string): TokenBudget | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'number') return { total: cap(option, where), input: Infinity, output: Infinity };
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new ConfigurationError(`${where} takes a number of tokens or { total?, input?, output? }; got ${describe(option)}.`, { [where]: option });
  }
  const unknown = Object.keys(option).filter((key) => key !== 'total' && key !== 'input' && key !== 'output');
  if (unknown.length > 0) {
    throw new ConfigurationError(`${where} has unknown key(s) ${unknown.join(', ')}: use total, input and output.`, { [where]: option });
  }
  const budget = {
    total: option.total === undefined ? Infinity : cap(option.total, `${where}.total`),
    input: option.input === undefined ? Infinity : cap(option.input, `${where}.input`),
    output: option.output === undefined ? Infinity : cap(option.output, `${where}.output`),
  };
  if (budget.total === Infinity && budget.input === Infinity && budget.output === Infinity) {
    throw new ConfigurationError(`${where} is empty: give total, input or output (or leave ${where} out for no budget).`, { [where]: option });
  }
  return budget;
}

/** Whether `usage` has reached any cap of `budget`. */
export function budgetSpent(budget: TokenBudget, usage: Usage): boolean {
  return usage.inputTokens + usage.outputTokens >= budget.total || usage.inputTokens >= budget.input || usage.outputTokens >= budget.output;
}

/** What is left of `budget` after `usage` (never below zero). */
export function remainingBudget(budget: TokenBudget, usage: Usage): TokenBudget {
  return {
    total: Math.max(0, budget.total - usage.inputTokens - usage.outputTokens),
    input: Math.max(0, budget.input - usage.inputTokens),
    output: Math.max(0, budget.output - usage.outputTokens),
  };
}

/** The stricter of two budgets, cap by cap (either may be absent). */
export function tighterBudget(a: TokenBudget | undefined, b: TokenBudget | undefined): TokenBudget | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return { total: Math.min(a.total, b.total), input: Math.min(a.input, b.input), output: Math.min(a.output, b.output) };
}

function cap(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ConfigurationError(`${where} must be a whole number of tokens of at least 1; got ${describe(value)}.`, { [where]: value });
  }
  return value;
}

const describe = (value: unknown) => (typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value));
