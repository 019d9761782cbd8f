import {
  type AnyTool,
  type ChatModel,
  ConfigurationError,
  DuplicateToolError,
  type Message,
  type StateRecord,
  type ToolChoice,
} from '@agentchart/core';
import type { z } from 'zod';
import { validateInitialState } from './validateInitialState.js';
import { DEFAULT_MAX_STEPS } from '../constants.js';
import type { AgentRuntime } from './agentRuntime.js';
import { type AgentRun, startAgentRun } from './agentRun.js';
import { type InspectOption, combineInspectors } from '../inspection/inspectOption.js';
import { globalInspectors } from '../inspection/runObservers.js';

/** What `createAgent` takes. */
export interface AgentOptions {
  /** Shown in events and on the agent's messages; 1 to 64 letters, digits, `_` or `-`. */
  name: string;
  model: ChatModel;
  /** The system prompt. */
  instructions?: string;
  tools?: readonly AnyTool[];
  /** Model round trips per run (default 10). */
  maxSteps?: number;
  /** What the model may do with its tools (default `auto`). */
  toolChoice?: ToolChoice;
  /** Observes every run of this agent: handed to each run's root actor (e.g. `inspectWithStately().inspect`). */
  inspect?: InspectOption;
  /**
   * A zod schema for the shared state: initial values and every write are
   * checked against it (make keys optional that may be absent).
   */
  stateSchema?: z.ZodType<StateRecord>;
}

/** What `agent.run` takes beside the input. */
export interface RunOptions {
  /** Aborting it cancels the model call and running tools; the run ends `aborted`. */
  signal?: AbortSignal;
  /** Observes this run (beside the agent's own `inspect`): handed to the root actor. */
  inspect?: InspectOption;
  /** Initial values of the run's shared state (checked against `stateSchema`). */
  state?: StateRecord;
}

/** An agent: configuration plus a `run` method. Holds no actor while idle. */
export interface Agent {
  readonly name: string;
  readonly tools: readonly AnyTool[];
  /**
   * Starts a run. `input` is a user message text or a list of messages.
   *
   * @example
   * const run = agent.run('What is 2 + 3?');
   * run.events$.subscribe((event) => console.log(event.type));
   * const { text, stopReason } = await run.result;
   */
  run(input: string | readonly Message[], options?: RunOptions): AgentRun;
}

/**
 * Creates an agent that calls typed tools in a loop against a model.
 *
 * @example
 * const agent = createAgent({
 *   name: 'calculator',
 *   model: scriptedModel([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: '5' }]),
 *   instructions: 'Use the tools to compute.',
 *   tools: [add],
 * });
 * const { text } = await agent.run('What is 2 + 3?').result; // '5'
 */
export function createAgent(options: AgentOptions): Agent {
  const runtime = buildRuntime(options);
  const tools = [...runtime.tools.values()];
  return {
    name: runtime.agentName,
    tools,
    run: (input, runOptions = {}) =>
      startAgentRun(
        runtime,
        toMessages(input),
        runOptions.signal,
        validateInitialState(runOptions.state, runtime.stateSchema),
        combineInspectors(options.inspect, runOptions.inspect, ...globalInspectors()),
      ),
  };
}

function buildRuntime(options: AgentOptions): AgentRuntime {
  if (typeof options.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(options.name)) {
    throw new ConfigurationError(
      `Agent name ${JSON.stringify(options.name)} is invalid: use 1 to 64 letters, digits, "_" or "-" (providers reject other names).`,
      { name: options.name },
    );
  }
  if (!options.model || typeof options.model.stream !== 'function') {
    throw new ConfigurationError(`Agent "${options.name}" needs a \`model\` (a ChatModel, e.g. scriptedModel(...) or ollama(...)).`);
  }
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new ConfigurationError(`maxSteps must be a whole number of at least 1; got ${String(options.maxSteps)}.`, {
      maxSteps: options.maxSteps,
    });
  }
  const tools = new Map<string, AnyTool>();
  for (const tool of options.tools ?? []) {
    const existing = tools.get(tool.name);
    if (existing !== undefined && existing !== tool) throw new DuplicateToolError(tool.name);
    tools.set(tool.name, tool);
  }
  return {
    agentName: options.name,
    model: options.model,
    tools,
    toolSpecs: [...tools.values()].map((tool) => tool.spec),
    instructions: options.instructions,
    toolChoice: options.toolChoice ?? 'auto',
    maxSteps,
    stateSchema: options.stateSchema,
  };
}

function toMessages(input: string | readonly Message[]): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) {
    throw new ConfigurationError('agent.run(input) takes a string or an array of messages.');
  }
  return [...input];
}
