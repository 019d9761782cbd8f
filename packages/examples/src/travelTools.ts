import { defineTool } from '@agentchart/core';
import { z } from 'zod';

const WEATHER: Record<string, { sky: string; celsius: number }> = {
  lisbon: { sky: 'sunny', celsius: 24 },
  oslo: { sky: 'snow', celsius: -3 },
};
const USD_RATES: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79 };

export const getWeather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: z.object({ city: z.string().min(1) }),
  execute: ({ city }) => {
    const weather = WEATHER[city.toLowerCase()];
    if (!weather) throw new Error(`No weather data for ${city}. Known cities: Lisbon, Oslo.`);
    return { city, ...weather };
  },
});

export const convertCurrency = defineTool({
  name: 'convert_currency',
  description: 'Converts an amount between USD, EUR and GBP.',
  parameters: z.object({
    amount: z.number().positive(),
    from: z.enum(['USD', 'EUR', 'GBP']),
    to: z.enum(['USD', 'EUR', 'GBP']),
  }),
  execute: ({ amount, from, to }) => ({
    amount: Math.round((amount / (USD_RATES[from] as number)) * (USD_RATES[to] as number) * 100) / 100,
    currency: to,
  }),
});

export const addReminder = defineTool({
  name: 'add_reminder',
  description: 'Adds a reminder for a day of the week.',
  parameters: z.object({ text: z.string().min(1), day: z.string() }),
  execute: ({ text, day }) => `Reminder set for ${day}: ${text}`,
});

export const travelTools = [getWeather, convertCurrency, addReminder];
