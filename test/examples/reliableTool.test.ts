import { flightRunnerScript, flightValidatorScript, printReliableToolEvents, reliableFlightSearch } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

describe('reliable-tool example', () => {
  it('recovers from a bad date and a rejected result, and prints every step', async () => {
    const runner = scriptedModel(flightRunnerScript);
    const validator = scriptedModel(flightValidatorScript);
    const findFlight = reliableFlightSearch(runner, validator);
    const lines: string[] = [];
    printReliableToolEvents(findFlight.events$, (line) => lines.push(line));

    const details = await findFlight.runWithDetails({
      task: 'A flight to Berlin this Friday.',
      validationPromptAddition: '- The flight must be direct (0 stops).',
    });

    expect(details).toMatchObject({
      ok: true,
      value: [{ number: 'TP560', departs: '2026-12-04T11:45', stops: 0, priceEur: 142 }],
      successfulArgs: { date: '2026-12-04', directOnly: true },
    });
    expect(details.attempts.map((attempt) => attempt.outcome)).toEqual(['execution-error', 'invalid-result', 'valid']);
    expect(runner.requests[1]?.messages.at(-1)?.content).toBe(
      'Attempt 1 of 3 failed: "Friday" is not a date in the form YYYY-MM-DD.\nCall "search_flights" again with arguments that address this.',
    );
    expect(validator.requests[0]?.messages[0]?.content).toContain('Additional criteria for this task:\n- The flight must be direct (0 stops).');
    expect(validator.requests[0]?.messages[1]).toEqual({ role: 'user', content: '[[Provided Ground Truth 1]]: Today is Monday, 2026-11-30.' });
    expect(lines).toEqual([
      '▶ find_flight: "A flight to Berlin this Friday." (at most 3 attempts)',
      '  criteria for this run: - The flight must be direct (0 stops).',
      '  attempt 1',
      '    🔧 {"date":"Friday"} — The task says Friday.',
      '    ✗ "Friday" is not a date in the form YYYY-MM-DD.',
      '  attempt 2',
      '    🔧 {"date":"2026-12-04"} — Friday after 2026-11-30 is 2026-12-04.',
      '    ✓ TP1234 departs 2026-12-04T07:10, 1 stop(s), 89 EUR',
      '    👎 TP1234 has 1 stop; the criteria for this run ask for a direct flight.',
      '  attempt 3',
      '    🔧 {"date":"2026-12-04","directOnly":true} — Only direct flights can satisfy the validator.',
      '    ✓ TP560 departs 2026-12-04T11:45, direct, 142 EUR',
      '    👍 TP560 departs on 2026-12-04 and is direct.',
      '■ find_flight: valid result after 3 attempt(s)',
    ]);
  });
});
