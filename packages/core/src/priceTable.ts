import { ConfigurationError } from './errors.js';
import type { Usage } from './messages.js';

/**
 * Prices in any currency per million tokens, by model name (as
 * `ChatModel.modelName` says it). A model absent from the table has no cost.
 *
 * @example
 * const prices: PriceTable = { 'gpt-4o-mini': { input: 0.15, output: 0.6 } };
 */
export type PriceTable = Readonly<Record<string, { readonly input: number; readonly output: number }>>;

/**
 * What `usage` of `model` cost by `prices`; `undefined` when the table has no
 * price for the model (or there is no table).
 *
 * @example
 * costOf({ m: { input: 1, output: 2 } }, 'm', { inputTokens: 1000, outputTokens: 500 }); // 0.002
 */
export function costOf(prices: PriceTable | undefined, model: string | undefined, usage: Usage): number | undefined {
  const price = model === undefined || prices === undefined || !Object.hasOwn(prices, model) ? undefined : prices[model];
  if (price === undefined) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** Checks a `prices` option: every entry needs non-negative `input` and `output` prices. */
export function checkPriceTable(prices: PriceTable | undefined, where: string): PriceTable | undefined {
  if (prices === undefined) return undefined;
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices)) {
    throw new ConfigurationError(`${where} takes { [modelName]: { input, output } } prices per million tokens.`, { [where]: prices });
  }
  for (const [model, price] of Object.entries(prices)) {
    const ok = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
    if (typeof price !== 'object' || price === null || !ok(price.input) || !ok(price.output)) {
      throw new ConfigurationError(
        `${where}["${model}"] needs input and output prices per million tokens, numbers of at least 0 (e.g. { input: 0.15, output: 0.6 }).`,
        { model, price },
      );
    }
  }
  return prices;
}
