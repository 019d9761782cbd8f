import { defineTool, toolResult } from '@agentchart/core';
import type { ScriptedTurn } from '@agentchart/providers';
import { z } from 'zod';

/** Quotes for a few symbols; `BAD` throws, `HALF` answers without a price. */
export function priceTool() {
  const invocations: Array<{ symbol: string }> = [];
  const tool = defineTool({
    name: 'lookup_price',
    description: 'Looks up the latest price of a stock symbol.',
    parameters: z.object({ symbol: z.string().describe('A ticker symbol, e.g. ACME') }),
    execute: ({ symbol }) => {
      invocations.push({ symbol });
      if (symbol === 'BAD') throw new Error('unknown symbol BAD');
      if (symbol === 'HALF') return toolResult({ symbol, price: null }, { text: 'HALF: price unavailable' });
      return toolResult({ symbol, price: 42 }, { text: `${symbol}: 42 USD` });
    },
  });
  return { tool, invocations };
}

/** A runner turn that calls lookup_price. */
export const callWith = (symbol: string, hypothesis = `${symbol} is the symbol named in the task.`): ScriptedTurn => ({
  toolCalls: [{ name: 'lookup_price', arguments: { hypothesis, symbol } }],
});

/** A validator turn with structured output. */
export const verdict = (valid: boolean, justification: string): ScriptedTurn => ({
  text: JSON.stringify({ valid, justification }),
});
