import type { WireTurn } from '../providers/wire/wireServer.js';

const call = (name: string, args: Record<string, unknown>) => JSON.stringify({ name, arguments: args });
const usage = { input: 120, output: 12 };

/**
 * What a good model on the fake server answers, scenario by scenario, for
 * two tries each: forced steps as the JSON the grammar produces, other
 * calls as native calls. The second parallel try calls one city per reply
 * (a fail), and the first is preceded by a parser-error line (recovered
 * within the step).
 */
export function twoTriesOfEveryScenario(): WireTurn[] {
  const twice = (...turns: WireTurn[]) => [...turns, ...turns];
  const weather = (city: string, id: string) => ({ name: 'get_weather', arguments: { city }, id });
  return [
    ...twice({ text: [call('multiply', { a: 6, b: 7 })], unconstrained: { text: ['Six times seven is 42.'] }, usage }, { text: ['42.'], usage }),
    ...twice(
      { text: [call('get_time', { city: 'Lisbon' })], unconstrained: { text: ['Lisbon is sunny.'] }, usage },
      { text: ['It is 14:05 in Lisbon.'], usage },
    ),
    ...twice(
      { text: [call('start_ticket', {})], usage },
      { text: [call('classify_ticket', { category: 'billing' })], usage },
      { text: [call('close_ticket', { summary: 'Double charge refunded.' })], usage },
    ),
    { parserError: 'failed to parse JSON: unexpected end of JSON input' },
    { toolCalls: [weather('Lisbon', 'call_l1'), weather('Porto', 'call_p1')], usage },
    { text: ['Both sunny.'], usage },
    { toolCalls: [weather('Lisbon', 'call_l2')], usage },
    { toolCalls: [weather('Porto', 'call_p2')], usage },
    { text: ['Both sunny.'], usage },
    ...twice(
      { toolCalls: [weather('Lisbon', 'call_m1')], usage },
      { toolCalls: [weather('Lisbon', 'call_m2')], usage },
      { text: ['Sunny, 21 °C.'], usage },
    ),
    ...twice({ text: ['{"city":"Lisbon","country":"Portugal"}'], usage }),
    ...twice(
      { toolCalls: [{ name: 'read_log', arguments: {}, id: 'call_log' }], usage },
      { text: ['The error code is 7319.'], usage: { input: 4100, output: 9 } },
    ),
  ];
}
