import {
  type AnyTool,
  DuplicateToolError,
  type FunctionMiddleware,
  ToolDefinitionError,
  type Message,
  type CompiledToolRules,
  type TokenBudget,
  checkPriceTable,
  tokenBudget,
  RunSnapshotError,
} from '@agentchart/core';
import { assertOptions } from '../assertOptions.js';
import { runInputMessages } from '../runInputMessages.js';
import { AgentOptionsSchema } from './agentOptionsSchema.js';
import type { AgentStoreRuns } from './agentStoreRuns.js';
import type { Agent, AgentConfig, AgentOptions, ResumeOptions, RunOptions } from './agentTypes.js';
import { validateInitialState } from './machine/validateInitialState.js';
import { DEFAULT_DETAILED_ERRORS, DEFAULT_MAX_CONSECUTIVE_ERRORS, DEFAULT_MAX_STEPS } from '../constants.js';
import { agentRuntime } from './machine/agentRuntime.js';
import type { AgentRuntime } from './machine/agentContext.js';
import { type AgentRun, resumeAgentRun, startAgentRun } from './run/agentRun.js';
import { checkSnapshotKey } from './run/snapshotSignature.js';
import { LiveToolSet, assertIsTool } from './tools/liveTools.js';
import { sharedToolRules } from './toolRules/sharedToolRules.js';
import { middlewareList } from './machine/middleware.js';
import { restoreRun } from './run/runSnapshot.js';
import { normalizeToolMode } from './machine/toolChoice.js';
import { type InspectOption, combineInspectors } from '../inspection/inspectOption.js';
import { globalInspectors } from '../inspection/runObservers.js';
import { AGENT_INTERNALS, type InternalAgent, type ProvidesAgentInternals, type RunInternals } from './internalAgent.js';
import type { RunCheckpoints } from './machine/agentContext.js';
import type { ToolSource } from './tools/toolSource.js';
import { agentWithToolSources } from './tools/toolSourceAgent.js';
import { ToolSourceSet } from './tools/toolSourceSet.js';

/**
 * An agent built from `createAgent`'s options (see the `createAgent`
 * facade, which hands in how runs with `{ store }` are kept: `storeRuns`).
 * Without tool sources it is a `ConfiguredAgent`; with them, an agent that
 * loads them and runs as the agent made for the loaded tools.
 *
 * @example
 * const agent = configuredAgent({ name: 'calculator', model, tools: [add] }, agentStoreRuns);
 */
export function configuredAgent(options: AgentOptions, storeRuns: AgentStoreRuns): Agent {
  const toolSources = typeof options === 'object' && options !== null ? options.toolSources : undefined;
  if (toolSources !== undefined && !(Array.isArray(toolSources) && toolSources.length === 0))
    return agentWithSources(options, toolSources, storeRuns);
  const config = buildConfig(options);
  // Checked now, so a bad agent-level toolChoice fails at creation, not at the first run.
  normalizeToolMode(config.toolChoice, [...config.tools.keys()], [...config.addableTools.keys()]);
  return new ConfiguredAgent(config, options.inspect, storeRuns);
}

/** An agent with tool sources: checked now as far as it can be, built for each loaded tool list (see `agentWithToolSources`). */
function agentWithSources(options: AgentOptions, toolSources: readonly ToolSource[], storeRuns: AgentStoreRuns): Agent {
  if (!Array.isArray(toolSources))
    throw new ToolDefinitionError(`createAgent({ name: "${options.name}", toolSources }) takes a list of tool sources.`, { got: typeof toolSources });
  // Everything but the rules and the tool choice can be checked before the sources' names are known.
  const { toolSources: _sources, toolRules: _rules, toolChoice: _choice, ...rest } = options;
  const config = buildConfig(rest);
  const sources = new ToolSourceSet(toolSources, [...config.tools.keys()]);
  const ownTools = [...config.tools.values()];
  return agentWithToolSources(
    config.agentName,
    ownTools,
    sources,
    (sourceTools) => configuredAgent({ ...options, toolSources: undefined, tools: [...ownTools, ...sourceTools] }, storeRuns),
    `Agent "${config.agentName}" has tool sources that are not loaded yet: \`await agent.loadTools()\` first.`,
    config.instructions,
  );
}

/**
 * An agent made by `createAgent`: its configuration, the agent's own
 * `inspect` option and how its stored runs are kept, methods on the
 * prototype. An idle agent holds nothing else (no closures, no copies of its
 * tool list until someone reads `tools`).
 */
class ConfiguredAgent implements Agent, ProvidesAgentInternals {
  readonly #config: AgentConfig;
  readonly #inspect: InspectOption | undefined;
  readonly #storeRuns: AgentStoreRuns;
  #tools: readonly AnyTool[] | undefined;

  constructor(config: AgentConfig, inspect: InspectOption | undefined, storeRuns: AgentStoreRuns) {
    this.#config = config;
    this.#inspect = inspect;
    this.#storeRuns = storeRuns;
  }

  get name(): string {
    return this.#config.agentName;
  }

  get instructions(): string | undefined {
    return this.#config.instructions;
  }

  get tools(): readonly AnyTool[] {
    this.#tools ??= [...this.#config.tools.values()];
    return this.#tools;
  }

  get toolRules(): CompiledToolRules | undefined {
    return this.#config.toolRules;
  }

  run(input: string | readonly Message[], runOptions: RunOptions = {}): AgentRun {
    if (runOptions.store !== undefined) return this.#storeRuns.run(this[AGENT_INTERNALS](), input, { ...runOptions, store: runOptions.store });
    return this.#start(input, runOptions, {});
  }

  /** A run in memory; a run kept in a store starts here too, with the store's internals. */
  #start(input: string | readonly Message[], runOptions: RunOptions, internals: RunInternals): AgentRun {
    const config = this.#config;
    const toolMode = normalizeToolMode(runOptions.toolChoice ?? config.toolChoice, [...config.tools.keys()], [...config.addableTools.keys()]);
    const state = validateInitialState(runOptions.state, config.stateSchema);
    const inspect = combineInspectors(this.#inspect, runOptions.inspect, ...globalInspectors());
    const middleware = middlewareList('agent.run(input, { middleware })', runOptions.middleware);
    const budget = runOptions.maxTokens === undefined ? config.tokenBudget : tokenBudget(runOptions.maxTokens, 'agent.run(input, { maxTokens })');
    const runtime = runtimeFor(config, config.tools.values(), middleware, true, budget, internals.checkpoints);
    return startAgentRun(runtime, runInputMessages(input, 'agent.run(input)'), toolMode, runOptions.signal, state, inspect, internals.runId);
  }

  resume(snapshot: unknown, resumeOptions: ResumeOptions = {}): AgentRun {
    if (typeof snapshot === 'string') {
      if (resumeOptions.store === undefined) {
        throw new RunSnapshotError(
          'RUN_SNAPSHOT_INVALID',
          `agent.resume("${snapshot}") takes a run id only with a store: agent.resume(runId, { store }). To resume a persisted run, pass what run.persist() returned (an object).`,
          { path: '' },
        );
      }
      return this.#storeRuns.resume(this[AGENT_INTERNALS](), snapshot, { ...resumeOptions, store: resumeOptions.store });
    }
    return this.#restore(snapshot, resumeOptions, {});
  }

  /** A persisted run resumed; a run kept in a store resumes here too, from its checkpoint, with the store's internals. */
  #restore(snapshot: unknown, resumeOptions: ResumeOptions, internals: RunInternals): AgentRun {
    const config = this.#config;
    const known = new Map([...config.addableTools, ...config.tools]);
    for (const tool of checkedTools('agent.resume(snapshot, { tools })', resumeOptions.tools)) known.set(tool.name, tool);
    const middleware = middlewareList('agent.resume(snapshot, { middleware })', resumeOptions.middleware);
    const inspect = combineInspectors(this.#inspect, resumeOptions.inspect, ...globalInspectors());
    const { checkpoints } = internals;
    const restored = restoreRun(
      snapshot,
      config.agentName,
      known,
      (live, budget) => runtimeFor(config, live, middleware, false, budget ?? config.tokenBudget, checkpoints),
      {
        snapshotKey: config.snapshotKey,
        startingTools: [...config.tools.keys()],
        vouchedTools: new Set((resumeOptions.tools ?? []).map((tool) => tool.name)),
      },
    );
    return resumeAgentRun(restored.runId, restored.snapshot, resumeOptions.signal, inspect, restored.resumeAt);
  }

  async loadTools(): Promise<readonly AnyTool[]> {
    return this.tools;
  }

  /** How a group chat or a stored run runs this agent: from its configuration, with internals. */
  [AGENT_INTERNALS](): InternalAgent {
    const config = this.#config;
    return {
      name: config.agentName,
      config: () => config,
      toolSources: undefined,
      start: (input, runOptions, internals) => this.#start(input, runOptions, internals),
      restore: (snapshot, resumeOptions, internals) => this.#restore(snapshot, resumeOptions, internals),
    };
  }

  /** An agent without tool sources holds nothing to close. */
  async close(): Promise<void> {}
}

/** A run's runtime: the agent's configuration, its own live tool list, and the run's middleware inside the agent's. */
function runtimeFor(
  config: AgentConfig,
  liveTools: Iterable<AnyTool>,
  middleware: readonly FunctionMiddleware[],
  mirrorToolRules = false,
  budget: TokenBudget | undefined = config.tokenBudget,
  checkpoints?: RunCheckpoints,
): AgentRuntime {
  return agentRuntime(config, {
    liveTools: new LiveToolSet(liveTools),
    middleware: middleware.length === 0 ? config.middleware : [...config.middleware, ...middleware],
    mirrorToolRules,
    tokenBudget: budget,
    checkpoints,
  });
}

function buildConfig(options: AgentOptions): AgentConfig {
  const named = typeof options === 'object' && options !== null && typeof options.name === 'string';
  assertOptions(AgentOptionsSchema, options, named ? `createAgent({ name: ${JSON.stringify(options.name)} })` : 'createAgent(options)');
  const tools = sharedToolMap(checkedTools(`createAgent({ name: "${options.name}", tools })`, options.tools));
  const addableTools = addableToolMap(checkedTools(`createAgent({ name: "${options.name}", addableTools })`, options.addableTools), tools);
  return {
    agentName: options.name,
    model: options.model,
    tools,
    middleware: middlewareList(`createAgent({ name: "${options.name}", middleware })`, options.middleware),
    instructions: options.instructions,
    toolChoice: options.toolChoice,
    maxSteps: options.maxSteps ?? DEFAULT_MAX_STEPS,
    maxToolCalls: options.maxToolCalls ?? Number.POSITIVE_INFINITY,
    maxConsecutiveErrors: options.maxConsecutiveErrors ?? DEFAULT_MAX_CONSECUTIVE_ERRORS,
    detailedErrors: options.detailedErrors ?? DEFAULT_DETAILED_ERRORS,
    stateSchema: options.stateSchema,
    snapshotKey: checkSnapshotKey(options.snapshotKey, `createAgent({ name: "${options.name}" })`),
    toolRules:
      options.toolRules === undefined
        ? undefined
        : sharedToolRules(options.toolRules, [...tools.keys(), ...addableTools.keys()], { unnamedTools: options.unnamedTools }),
    addableTools,
    tokenBudget: tokenBudget(options.maxTokens, `createAgent({ name: "${options.name}", maxTokens })`),
    prices: checkPriceTable(options.prices, `createAgent({ name: "${options.name}", prices })`),
  };
}

/** A tools option: a list of tools made with `defineTool` (a clear error for anything else). */
function checkedTools(where: string, value: readonly AnyTool[] | undefined): readonly AnyTool[] {
  if (value === undefined) return [];
  const message = `${where} takes a list of tools made with defineTool(...).`;
  if (!Array.isArray(value)) throw new ToolDefinitionError(message, { got: typeof value });
  for (const tool of value) assertIsTool(tool, message);
  return value;
}

/** The tool map of every agent without tools (a map is never written once built). */
const noTools: ReadonlyMap<string, AnyTool> = new Map();

/** Tool maps by the list they were built from, with the tools it held then: agents made from one list share one map. */
const toolMapsByList = new WeakMap<readonly AnyTool[], { tools: readonly AnyTool[]; map: ReadonlyMap<string, AnyTool> }>();

/**
 * Tools by name, shared by the agents made from the same list with the same
 * tools in it (10,000 agents given one `tools` array hold one map). A list
 * changed since holds other tools, so it gets a map of its own.
 */
function sharedToolMap(list: readonly AnyTool[]): ReadonlyMap<string, AnyTool> {
  if (list.length === 0) return noTools;
  const cached = toolMapsByList.get(list);
  if (cached !== undefined && cached.tools.length === list.length && cached.tools.every((tool, index) => tool === list[index])) return cached.map;
  const map = toolMap(list);
  toolMapsByList.set(list, { tools: [...list], map });
  return map;
}

/** The addable tools by name, without those the agent has already; a different tool under a taken name throws. */
function addableToolMap(list: readonly AnyTool[], tools: ReadonlyMap<string, AnyTool>): ReadonlyMap<string, AnyTool> {
  if (list.length === 0) return noTools;
  const addable = toolMap(list, tools);
  for (const name of tools.keys()) addable.delete(name);
  return addable;
}

/** Tools by name; a different tool under a name already taken (here or in `taken`) throws. */
function toolMap(list: readonly AnyTool[], taken: ReadonlyMap<string, AnyTool> = new Map()): Map<string, AnyTool> {
  const tools = new Map<string, AnyTool>();
  for (const tool of list) {
    const existing = tools.get(tool.name) ?? taken.get(tool.name);
    if (existing !== undefined && existing !== tool) throw new DuplicateToolError(tool.name);
    tools.set(tool.name, tool);
  }
  return tools;
}
