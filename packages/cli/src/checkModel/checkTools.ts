import { defineTool } from '@agentchart/core';
import { z } from 'zod';

/** The tools the model check offers: small, typed, with fixed answers, so only the model varies. */
export const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export const multiply = defineTool({
  name: 'multiply',
  description: 'Multiplies two numbers.',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a * b,
});

export const getWeather = defineTool({
  name: 'get_weather',
  description: 'The current weather in a city.',
  parameters: z.object({ city: z.string().describe('The city, e.g. "Lisbon"') }),
  execute: ({ city }) => `${city}: 21 °C, sunny`,
});

export const getTime = defineTool({
  name: 'get_time',
  description: 'The local time in a city.',
  parameters: z.object({ city: z.string().describe('The city, e.g. "Lisbon"') }),
  execute: ({ city }) => `${city}: 14:05`,
});

export const startTicket = defineTool({
  name: 'start_ticket',
  description: 'Opens a support ticket. Call it first.',
  parameters: z.object({}),
  execute: () => 'ticket T-1 opened',
});

export const classifyTicket = defineTool({
  name: 'classify_ticket',
  description: 'Files the open ticket under a category.',
  parameters: z.object({ category: z.enum(['billing', 'technical', 'other']) }),
  execute: ({ category }) => `filed under ${category}`,
});

export const closeTicket = defineTool({
  name: 'close_ticket',
  description: 'Closes the ticket with a one-line summary. Call it last.',
  parameters: z.object({ summary: z.string() }),
  execute: () => 'ticket T-1 closed',
});

/** The fact the long log hides near its end. */
export const LOG_ERROR_CODE = '7319';

/** How many characters the long tool result has (about 4,000 tokens). */
export const LONG_LOG_CHARS = 16_000;

export const readLog = defineTool({
  name: 'read_log',
  description: 'Reads the service log.',
  parameters: z.object({}),
  execute: () => longLog(),
});

/** A log of `LONG_LOG_CHARS` characters whose one error line sits near the end. */
export function longLog(): string {
  const lines: string[] = [];
  let size = 0;
  for (let index = 0; size < LONG_LOG_CHARS - 200; index++) {
    const line = `2026-01-01T10:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')} INFO request ${index} served in ${(index * 7) % 90} ms`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.splice(lines.length - 3, 0, `2026-01-01T11:59:59 ERROR payment failed code=${LOG_ERROR_CODE}`);
  return lines.join('\n');
}
