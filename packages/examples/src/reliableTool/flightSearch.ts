import { type ReliableTool, reliableTool } from '@agentchart/actors';
import { type ChatModel, ToolError, defineTool, toolResult } from '@agentchart/core';
import type { ScriptedTurn } from '@agentchart/providers';
import { z } from 'zod';

/** A flight as the search returns it. */
export interface Flight {
  number: string;
  departs: string;
  stops: number;
  priceEur: number;
}

const TIMETABLE: Flight[] = [
  { number: 'TP1234', departs: '2026-12-04T07:10', stops: 1, priceEur: 89 },
  { number: 'TP560', departs: '2026-12-04T11:45', stops: 0, priceEur: 142 },
  { number: 'LH1171', departs: '2026-12-04T16:20', stops: 0, priceEur: 188 },
];

/**
 * A flight search from Lisbon to Berlin that is easy to call wrongly: dates
 * must be ISO, and without `directOnly` it lists the cheapest flights first,
 * stops included. It returns the flights to the program and a summary to
 * the models (`toolResult`).
 */
export const searchFlights = defineTool({
  name: 'search_flights',
  description: 'Searches flights from Lisbon (LIS) to Berlin (BER) on one day.',
  parameters: z.object({
    date: z.string().describe('The day of departure, YYYY-MM-DD.'),
    directOnly: z.boolean().optional().describe('Only flights without stops.'),
    maxResults: z.number().int().min(1).max(5).optional(),
  }),
  execute: ({ date, directOnly = false, maxResults = 1 }) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new ToolError(`"${date}" is not a date in the form YYYY-MM-DD.`);
    const flights = TIMETABLE.filter((flight) => flight.departs.startsWith(date) && (!directOnly || flight.stops === 0))
      .sort((a, b) => a.priceEur - b.priceEur)
      .slice(0, maxResults);
    const text =
      flights.length === 0
        ? `No flights on ${date}.`
        : flights.map((f) => `${f.number} departs ${f.departs}, ${f.stops === 0 ? 'direct' : `${f.stops} stop(s)`}, ${f.priceEur} EUR`).join('\n');
    return toolResult(flights, { text });
  },
});

/**
 * The flight search made reliable: a runner model picks the arguments and a
 * validator model checks the result against the criteria.
 *
 * @example
 * const flights = await reliableFlightSearch(runner, validator).run({ task: 'A direct flight on Friday' });
 */
export function reliableFlightSearch(runnerModel: ChatModel, validatorModel: ChatModel): ReliableTool<Flight[]> {
  return reliableTool({
    name: 'find_flight',
    tool: searchFlights,
    runnerModel,
    validatorModel,
    description: 'Finds a flight from Lisbon to Berlin that meets the task, validated before it is returned.',
    runnerInstructions: 'Dates are always YYYY-MM-DD.',
    validationInstructions: '- Every flight listed must depart on the day the task asks for.',
    dynamicValidation: true,
    groundTruth: ['Today is Monday, 2026-11-30.'],
  });
}

/** The runner's scripted turns: a date in words (an error), then a flight with a stop (rejected), then a direct one. */
export const flightRunnerScript: ScriptedTurn[] = [
  { toolCalls: [{ name: 'search_flights', arguments: { hypothesis: 'The task says Friday.', date: 'Friday' } }] },
  { toolCalls: [{ name: 'search_flights', arguments: { hypothesis: 'Friday after 2026-11-30 is 2026-12-04.', date: '2026-12-04' } }] },
  {
    toolCalls: [
      { name: 'search_flights', arguments: { hypothesis: 'Only direct flights can satisfy the validator.', date: '2026-12-04', directOnly: true } },
    ],
  },
];

/** The validator's scripted verdicts for the runner's two results. */
export const flightValidatorScript: ScriptedTurn[] = [
  { text: JSON.stringify({ valid: false, justification: 'TP1234 has 1 stop; the criteria for this run ask for a direct flight.' }) },
  { text: JSON.stringify({ valid: true, justification: 'TP560 departs on 2026-12-04 and is direct.' }) },
];
