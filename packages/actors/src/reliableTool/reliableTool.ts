import {
  type AnyTool,
  ConfigurationError,
  type JsonSchema,
  type Tool,
  type ToolParameters,
  type ToolResultValue,
  defineTool,
  toolResult,
} from '@agentchart/core';
import { type Observable, Subject } from 'rxjs';
import { z } from 'zod';
import type { ReliableRunCaller, ReliableToolEvent } from './reliableToolEvents.js';
import { type ReliableToolOptions, readContextItems, resolveReliableToolRuntime } from './reliableToolOptions.js';
import { type ReliableRunDetails, type ReliableRunRequest, type ReliableRunSettings, startReliableRun } from './startReliableRun.js';

/** The arguments another agent's model passes to a reliable tool. */
export type ReliableToolArgs = { task: string; validationPromptAddition?: string };

/** A tool's result value, unwrapped from `toolResult`. */
export type ToolValue<R> = Awaited<R> extends ToolResultValue<infer V> ? V : Awaited<R>;

/** A tool in the current OpenAI `tools` format. */
export interface ToolSchema {
  type: 'function';
  function: FunctionSchema;
}

/** A tool in the legacy OpenAI `functions` format. */
export interface FunctionSchema {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/**
 * A tool that runs another tool until one invocation passes validation. Give
 * it to any agent like any tool, or call `run` / `runWithDetails` from code.
 */
export interface ReliableTool<V = unknown> extends Tool<z.ZodType<ReliableToolArgs>, ToolResultValue<V>> {
  /** The wrapped tool. */
  readonly tool: AnyTool;
  readonly maxToolInvocations: number;
  readonly dynamicValidation: boolean;
  /** Every run's attempts, runner calls and validator verdicts (see `ReliableToolEvent`). */
  readonly events$: Observable<ReliableToolEvent>;
  /** This tool in the current OpenAI `tools` format. */
  readonly toolSchema: ToolSchema;
  /** This tool in the legacy OpenAI `functions` format. */
  readonly functionSchema: FunctionSchema;
  /**
   * Resolves with the wrapped tool's result value once one invocation passes
   * validation; rejects with `ReliableToolError` (carrying every attempt) otherwise.
   *
   * @example
   * const forecast = await weather.run({ task: 'Tomorrow in Lisbon, in °C' });
   */
  run(request: ReliableRunRequest): Promise<V>;
  /**
   * Like `run`, but never rejects: resolves with `{ ok, value | failureReason, attempts, successfulArgs, ... }`.
   *
   * @example
   * const details = await weather.runWithDetails({ task: 'Tomorrow in Lisbon' });
   * if (!details.ok) console.log(details.failureReason, details.attempts);
   */
  runWithDetails(request: ReliableRunRequest): Promise<ReliableRunDetails<V>>;
}

const taskParameter = z.string().min(1).describe('What to accomplish, in plain words, with every detail the result depends on.');
const additionParameter = z.string().optional().describe('Extra criteria the result must meet for this task, e.g. "Must include prices in EUR".');

/**
 * Wraps a tool so that a runner model calls it and a validator model judges
 * each result, until one invocation passes validation or
 * `maxToolInvocations` attempts are spent (AG2's ReliableTool).
 *
 * @example
 * const weather = reliableTool({
 *   name: 'reliable_weather',
 *   tool: getWeather,
 *   runnerModel: ollama({ model: 'qwen3:8b' }),
 *   validatorModel: ollama({ model: 'qwen3:8b' }),
 *   validationInstructions: 'The forecast must name the city and give a temperature in °C.',
 * });
 * const forecast = await weather.run({ task: 'Weather in Lisbon tomorrow' });
 * const agent = createAgent({ name: 'planner', model, tools: [weather] }); // or as a tool
 */
export function reliableTool<P extends ToolParameters, R>(options: ReliableToolOptions<P, R>): ReliableTool<ToolValue<R>> {
  type V = ToolValue<R>;
  const runtime = resolveReliableToolRuntime(options);
  const dynamicValidation = options.dynamicValidation ?? false;
  const context = readContextItems(`reliableTool "${options.name}"`, options.messages, options.groundTruth);
  if (!context.ok) throw new ConfigurationError(context.problem, { name: options.name });
  const events = new Subject<ReliableToolEvent>();
  const settings: ReliableRunSettings = { runtime, dynamicValidation, messages: context.messages, groundTruth: context.groundTruth, events };

  const runWithDetails = (request: ReliableRunRequest, caller?: ReliableRunCaller) => startReliableRun<V>(settings, request, caller);
  const run = async (request: ReliableRunRequest): Promise<V> => {
    const details = await runWithDetails(request);
    if (!details.ok) throw details.error;
    return details.value;
  };

  const parameters: z.ZodType<ReliableToolArgs> = dynamicValidation
    ? z.object({ task: taskParameter, validationPromptAddition: additionParameter })
    : z.object({ task: taskParameter });
  const asTool = defineTool({
    name: options.name,
    description: options.description ?? options.tool.description,
    parameters,
    // The runner calls the wrapped tool without asking anyone: a tool that needs approval makes the
    // reliable tool need it, for the whole task, before any invocation.
    approval: runtime.tool.approval === 'never' ? 'never' : 'always',
    execute: async (args, ctx) => {
      const request: ReliableRunRequest = { task: args.task, signal: ctx.signal, state: ctx.state };
      if (args.validationPromptAddition !== undefined) request.validationPromptAddition = args.validationPromptAddition;
      const details = await runWithDetails(request, { runId: ctx.runId, agent: ctx.agentName, callId: ctx.callId });
      if (!details.ok) throw details.error;
      return toolResult(details.value, { text: details.text });
    },
  });
  const functionSchema = (): FunctionSchema => ({
    name: asTool.name,
    description: asTool.description,
    parameters: structuredClone(asTool.jsonSchema),
  });

  return {
    ...asTool,
    tool: runtime.tool,
    maxToolInvocations: runtime.maxToolInvocations,
    dynamicValidation,
    events$: events.asObservable(),
    get toolSchema(): ToolSchema {
      return { type: 'function', function: functionSchema() };
    },
    get functionSchema(): FunctionSchema {
      return functionSchema();
    },
    run,
    runWithDetails: (request) => runWithDetails(request),
  };
}
