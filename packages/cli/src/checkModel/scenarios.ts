import { createAgent } from '@agentchart/actors';
import { type ChatModel, type ToolCall, type Usage, msg, rules } from '@agentchart/core';
import { map } from 'rxjs';
import { z } from 'zod';
import { LOG_ERROR_CODE, add, classifyTicket, closeTicket, getTime, getWeather, multiply, readLog, startTicket } from './checkTools.js';

/** What one try of a scenario found. */
export interface TryOutcome {
  passed: boolean;
  /** Why it failed (or a short note when it passed). */
  detail: string;
  usage: Usage;
}

/** One fixed check of a model. */
export interface Scenario {
  name: string;
  description: string;
  run(model: ChatModel, signal: AbortSignal): Promise<TryOutcome>;
}

const sameNumbers = (args: unknown, a: number, b: number): boolean => {
  const { a: x, b: y } = (args ?? {}) as { a?: unknown; b?: unknown };
  return (x === a && y === b) || (x === b && y === a);
};
const isCity = (args: unknown, city: RegExp): boolean => city.test(String((args as { city?: unknown } | undefined)?.city ?? ''));
const describeCall = (call: ToolCall | undefined): string =>
  call === undefined ? 'no call' : `${call.name}(${call.malformedArguments ?? JSON.stringify(call.arguments)})`;

/**
 * The model check's scenarios, in the order they run. Each passes or fails
 * on what the model did, read from the agent's result: the provider and the
 * server are part of what is checked (tool choice, parsing, round trips).
 */
export const scenarios: readonly Scenario[] = [
  {
    name: 'forced-required',
    description: "toolChoice 'required': the first reply is a call of one of the offered tools, with the right arguments",
    async run(model, signal) {
      const agent = createAgent({ name: 'check', model, tools: [add, multiply], maxSteps: 3 });
      const result = await agent.run('What is 6 times 7?', { toolChoice: 'required', signal }).result;
      const first = result.toolCalls[0]?.call;
      const passed = first?.name === 'multiply' && sameNumbers(first.arguments, 6, 7) && result.stopReason === 'completed';
      return { passed, detail: passed ? 'multiply(6, 7)' : `first call ${describeCall(first)}, run ${result.stopReason}`, usage: result.usage };
    },
  },
  {
    name: 'forced-named',
    description: 'a named tool choice: the model calls exactly that tool even where another one looks more natural',
    async run(model, signal) {
      const agent = createAgent({ name: 'check', model, tools: [getWeather, getTime], maxSteps: 3 });
      const result = await agent.run('Is it warm in Lisbon right now?', {
        toolChoice: { mode: 'required', requiredFunctionName: 'get_time' },
        signal,
      }).result;
      const first = result.toolCalls[0]?.call;
      const passed = first?.name === 'get_time' && isCity(first.arguments, /lisbon/i) && result.stopReason === 'completed';
      return { passed, detail: passed ? 'get_time(Lisbon)' : `first call ${describeCall(first)}, run ${result.stopReason}`, usage: result.usage };
    },
  },
  {
    name: 'rules',
    description: 'tool rules init → child → terminal: start_ticket, then classify_ticket, ends with close_ticket',
    async run(model, signal) {
      const agent = createAgent({
        name: 'check',
        model,
        instructions: 'You handle support requests with the ticket tools.',
        tools: [startTicket, classifyTicket, closeTicket],
        toolRules: [rules.init('start_ticket'), rules.child('start_ticket', ['classify_ticket']), rules.terminal('close_ticket')],
        maxSteps: 6,
      });
      const result = await agent.run('My invoice charges me twice this month. Please handle it.', { signal }).result;
      const ran = result.toolCalls.filter((record) => record.refusedBy === undefined && !record.isError).map((record) => record.call.name);
      const passed =
        result.stopReason === 'terminal-tool' && ran[0] === 'start_ticket' && ran[1] === 'classify_ticket' && ran.at(-1) === 'close_ticket';
      return { passed, detail: `${ran.join(' → ') || 'no calls'} (${result.stopReason})`, usage: result.usage };
    },
  },
  {
    name: 'parallel-calls',
    description: 'two independent lookups as two calls in one reply',
    async run(model, signal) {
      const agent = createAgent({ name: 'check', model, tools: [getWeather], maxSteps: 4 });
      const result = await agent.run('What is the weather in Lisbon and in Porto? Look both up at once.', { signal }).result;
      const firstStep = result.toolCalls.filter((record) => record.step === result.toolCalls[0]?.step).map((record) => record.call);
      const passed =
        firstStep.some((call) => isCity(call.arguments, /lisbon/i)) &&
        firstStep.some((call) => isCity(call.arguments, /porto/i)) &&
        result.stopReason === 'completed';
      return { passed, detail: `${firstStep.length} call(s) in the first reply: ${firstStep.map(describeCall).join(', ')}`, usage: result.usage };
    },
  },
  {
    name: 'malformed-recovery',
    description: 'its first call arrives malformed (cut off); told so, the model calls again correctly',
    async run(model, signal) {
      const agent = createAgent({ name: 'check', model: corruptFirstCall(model), tools: [getWeather], maxSteps: 4 });
      const result = await agent.run("What's the weather in Lisbon?", { signal }).result;
      const [broken, ...later] = result.toolCalls;
      const recovered = later.find((record) => !record.isError && record.call.name === 'get_weather' && isCity(record.call.arguments, /lisbon/i));
      const passed = broken?.isError === true && recovered !== undefined && result.stopReason === 'completed';
      return {
        passed,
        detail: passed
          ? 'called again correctly'
          : `then ${later.map((record) => describeCall(record.call)).join(', ') || 'no call'} (${result.stopReason})`,
        usage: result.usage,
      };
    },
  },
  {
    name: 'structured-output',
    description: 'a JSON Schema response format: the reply is JSON that matches it',
    async run(model, signal) {
      const schema = z.object({ city: z.string(), country: z.string() });
      let text = '';
      let usage: Usage = { inputTokens: 0, outputTokens: 0 };
      await new Promise<void>((resolve, reject) =>
        model
          .stream({
            messages: [msg.user('What is the capital of Portugal? Answer as JSON with "city" and "country".')],
            tools: [],
            toolChoice: 'none',
            responseFormat: { type: 'json_schema', name: 'capital', schema: z.toJSONSchema(schema) as Record<string, unknown> },
            signal,
          })
          .subscribe({
            next: (event) => {
              if (event.type === 'text-delta') text += event.text;
              if (event.type === 'usage') usage = event.usage;
            },
            error: reject,
            complete: resolve,
          }),
      );
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { passed: false, detail: `not JSON: ${JSON.stringify(text.slice(0, 80))}`, usage };
      }
      const checked = schema.safeParse(parsed);
      const passed = checked.success && /lisbon|lisboa/i.test(checked.data.city);
      return { passed, detail: passed ? text.trim() : `does not match: ${JSON.stringify(text.slice(0, 80))}`, usage };
    },
  },
  {
    name: 'long-tool-result',
    description: 'a 16,000-character tool result: the model finds the one error line near its end',
    async run(model, signal) {
      const agent = createAgent({ name: 'check', model, tools: [readLog], maxSteps: 3 });
      const result = await agent.run('Read the service log and tell me the code of the error in it.', { signal }).result;
      const passed = result.toolCalls.some((record) => record.call.name === 'read_log') && result.text.includes(LOG_ERROR_CODE);
      return { passed, detail: passed ? `found ${LOG_ERROR_CODE}` : `answered ${JSON.stringify(result.text.slice(0, 80))}`, usage: result.usage };
    },
  },
];

/**
 * The model with its first tool call cut off mid-arguments, as a truncated
 * reply would arrive: the agent answers it with an error, and the model
 * must call again.
 */
function corruptFirstCall(model: ChatModel): ChatModel {
  let corrupted = false;
  return {
    provider: model.provider,
    modelName: model.modelName,
    stream: (request) =>
      model.stream(request).pipe(
        map((event) => {
          if (event.type !== 'tool-call' || corrupted) return event;
          corrupted = true;
          const text = JSON.stringify(event.call.arguments ?? {});
          return {
            type: 'tool-call' as const,
            call: { id: event.call.id, name: event.call.name, arguments: undefined, malformedArguments: text.slice(0, Math.max(1, text.length - 4)) },
          };
        }),
      ),
  };
}
