import {
  type AnyTool,
  type ChatModel,
  DuplicateToolError,
  type FunctionMiddleware,
  ToolDefinitionError,
  type Message,
  type StateRecord,
  type ToolChoice,
  type ToolMode,
  type CompiledToolRules,
  type ToolRuleInput,
  type PriceTable,
  type TokenBudget,
  type TokenBudgetOption,
  checkPriceTable,
  type UnnamedToolPolicy,
  tokenBudget,
  RunSnapshotError,
  type RunStore,
} from '@agentchart/core';
import type { z } from 'zod';
import { assertOptions } from '../assertOptions.js';
import { runInputMessages } from '../runInputMessages.js';
import { AgentOptionsSchema } from './agentOptionsSchema.js';
import { validateInitialState } from './machine/validateInitialState.js';
import { DEFAULT_DETAILED_ERRORS, DEFAULT_MAX_CONSECUTIVE_ERRORS, DEFAULT_MAX_STEPS } from '../constants.js';
import { type AgentRuntime, agentRuntime } from './machine/agentRuntime.js';
import { type AgentRun, resumeAgentRun, startAgentRun } from './run/agentRun.js';
import { type SnapshotKey, checkSnapshotKey } from './run/snapshotSignature.js';
import { LiveToolSet, assertIsTool } from './tools/liveTools.js';
import { sharedToolRules } from './toolRules/sharedToolRules.js';
import { middlewareList } from './machine/middleware.js';
import { restoreRun } from './run/runSnapshot.js';
import { normalizeToolMode } from './machine/toolChoice.js';
import { type InspectOption, combineInspectors } from '../inspection/inspectOption.js';
import { globalInspectors } from '../inspection/runObservers.js';
import { type AgentProtocol, PARTICIPANT_PROTOCOL, type ProvidesParticipantProtocol } from '../participant/participantProtocol.js';
import { presetRunId } from './run/runIdOption.js';
import { checkpointsOption } from './run/checkpointsOption.js';
import type { RunCheckpoints } from './machine/runCheckpoints.js';
import { storedAgentResume, storedAgentRun } from '../durable/storedRuns.js';
import type { ToolSource } from './tools/toolSource.js';
import { agentWithToolSources } from './tools/toolSourceAgent.js';
import { ToolSourceSet } from './tools/toolSourceSet.js';

/** What `createAgent` takes. */
export interface AgentOptions {
  /** Shown in events and on the agent's messages; 1 to 64 letters, digits, `_` or `-`. */
  name: string;
  model: ChatModel;
  /** The system prompt. */
  instructions?: string;
  /** The tools every run starts with (each run gets its own copy of the list). */
  tools?: readonly AnyTool[];
  /**
   * Tools that tools of this agent may add to a run (`ctx.addTools`), not
   * offered until added. Listing them lets tool rules and `toolChoice.allowedTools`
   * name them, and lets `agent.resume` find them by name. (Any tool can be
   * added; rules govern only the tools they were compiled with.)
   */
  addableTools?: readonly AnyTool[];
  /**
   * Where more tools come from (MCP servers: `mcpServer(...)`). They are
   * loaded before a run's first model request (the first load connects);
   * tool rules, `toolChoice` and approvals then address the names the model
   * sees, checked once the list is known, and list changes reach running runs.
   * Close them with `agent.close()`.
   */
  toolSources?: readonly ToolSource[];
  /** Model round trips per run (default 10). */
  maxSteps?: number;
  /** Tool calls a run may execute in total (default: no limit); then one last model call with tool choice `none`. */
  maxToolCalls?: number;
  /**
   * Iterations in a row with a failing tool call (default 3) before the run
   * makes one last model call with tool choice `none`.
   */
  maxConsecutiveErrors?: number;
  /** Whether the model sees a thrown error's message (default `true`); `events$` always gets the full error. */
  detailedErrors?: boolean;
  /** What the model may do with its tools (default `auto`); a run can override it. */
  toolChoice?: ToolMode | ToolChoice;
  /** Function middleware around every tool invocation of every run, outermost first. */
  middleware?: readonly FunctionMiddleware[];
  /** Observes every run of this agent: handed to each run's root actor (e.g. `inspectWithStately().inspect`). */
  inspect?: InspectOption;
  /**
   * Tool rules (`rules.init('search')`, ... or Letta JSON), compiled and
   * checked when the agent is created: a rule set that names unknown tools or
   * can deadlock throws `ToolRulesError` before any model is called.
   */
  toolRules?: readonly ToolRuleInput[];
  /**
   * Tools the rules do not name (added during a run and not in `addableTools`):
   * allowed only where the rules leave the choice free (`'where-free'`, the
   * default) or never (`'refuse'`). Only with `toolRules`.
   */
  unnamedTools?: UnnamedToolPolicy;
  /**
   * A zod schema for the shared state: initial values and every write are
   * checked against it (make keys optional that may be absent).
   */
  stateSchema?: z.ZodType<StateRecord>;
  /**
   * A secret that signs every snapshot `run.persist()` writes (HMAC-SHA256);
   * `agent.resume` then refuses an unsigned or edited one (`SNAPSHOT_TAMPERED`).
   * At least 16 bytes.
   */
  snapshotKey?: SnapshotKey;
  /**
   * Tokens a run may use (input + output, or each), counted from the usage
   * the model reports: once reached, the run ends with stop reason
   * `token-budget` after the current step. A run can override it.
   */
  maxTokens?: TokenBudgetOption;
  /** Prices per million tokens by model name: runs of a priced model report `cost` in their result. */
  prices?: PriceTable;
}

/** What `agent.run` takes beside the input. */
export interface RunOptions {
  /** Aborting it cancels the model call and running tools; the run ends `aborted`. */
  signal?: AbortSignal;
  /** Overrides the agent's `toolChoice` for this run. */
  toolChoice?: ToolMode | ToolChoice;
  /** Function middleware for this run, inside the agent's middleware. */
  middleware?: readonly FunctionMiddleware[];
  /** Observes this run (beside the agent's own `inspect`): handed to the root actor. */
  inspect?: InspectOption;
  /** Initial values of the run's shared state (checked against `stateSchema`). */
  state?: StateRecord;
  /** Overrides the agent's `maxTokens` for this run. */
  maxTokens?: TokenBudgetOption;
  /**
   * Keeps the run in a store (`@agentchart/store/sqlite` or `/postgres`): it
   * is created there under this process's lease and checkpointed after every
   * step, every tool call goes through the store's journal, and
   * `agent.resume(runId, { store })` continues it after a crash (docs/durability.md).
   */
  store?: RunStore;
  /** The run's id in the store (default: a new one). Only with `store`. */
  runId?: string;
  /** Who holds the run's lease (default `<hostname>:<pid>`). Only with `store`. */
  owner?: string;
  /** How long the lease lasts unless renewed, in ms (default 30 000). Only with `store`. */
  leaseMs?: number;
}

/** What `agent.resume` takes beside the persisted run. */
export interface ResumeOptions {
  signal?: AbortSignal;
  /** Run-level middleware for the rest of the run (it is code, so it is not persisted). */
  middleware?: readonly FunctionMiddleware[];
  /** Tools the run had added (`ctx.addTools`) that the agent does not have itself. */
  tools?: readonly AnyTool[];
  /** Observes the resumed run (beside the agent's own `inspect`). */
  inspect?: InspectOption;
  /** Where the run is kept, for `agent.resume(runId, { store })`. */
  store?: RunStore;
  /** Who takes the run's lease (default `<hostname>:<pid>`). Only with `store`. */
  owner?: string;
  /** How long the lease lasts unless renewed, in ms (default 30 000). Only with `store`. */
  leaseMs?: number;
}

/** An agent: configuration plus a `run` method. Holds no actor while idle. */
export interface Agent {
  readonly name: string;
  /** The agent's system prompt (`instructions`), as given; how servers and chats describe it. */
  readonly instructions: string | undefined;
  readonly tools: readonly AnyTool[];
  /** The compiled tool rules (their machine, warnings, analysis), when the agent has rules. */
  readonly toolRules: CompiledToolRules | undefined;
  /**
   * Starts a run. `input` is a user message text or a list of messages.
   *
   * @example
   * const run = agent.run('What is 2 + 3?');
   * run.events$.subscribe((event) => console.log(event.type));
   * const { text, stopReason } = await run.result;
   */
  run(input: string | readonly Message[], options?: RunOptions): AgentRun;
  /**
   * Continues a run persisted with `run.persist()` while it waited for
   * approval, in this process or another; or, given a run id and a `store`,
   * a run kept in the store from its last checkpoint (whatever step it was at).
   *
   * @example
   * const snapshot = JSON.parse(await readFile('run.json', 'utf8'));
   * const run = agent.resume(snapshot);
   * run.approve(run.pendingApprovals[0].id);
   * await run.result;
   * // or: const stored = agent.resume('pay-42', { store });
   */
  resume(snapshot: unknown, options?: ResumeOptions): AgentRun;
  /**
   * Loads the agent's tool sources (connecting them) and returns every tool a
   * run would start with; without sources, the agent's own tools. A group
   * chat takes an agent with sources once they are loaded.
   */
  loadTools(): Promise<readonly AnyTool[]>;
  /** Closes the agent's tool sources (connections, child processes); a later run connects again. */
  close(): Promise<void>;
}

/** The agent-level configuration every run's runtime is built from. */
export type AgentConfig = Omit<AgentRuntime, 'liveTools'> & {
  toolChoice: ToolMode | ToolChoice | undefined;
  addableTools: ReadonlyMap<string, AnyTool>;
};

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
  const toolSources = typeof options === 'object' && options !== null ? options.toolSources : undefined;
  if (toolSources !== undefined && !(Array.isArray(toolSources) && toolSources.length === 0)) return createAgentWithSources(options, toolSources);
  const config = buildConfig(options);
  // Checked now, so a bad agent-level toolChoice fails at creation, not at the first run.
  normalizeToolMode(config.toolChoice, [...config.tools.keys()], [...config.addableTools.keys()]);
  return new ConfiguredAgent(config, options.inspect);
}

/** An agent with tool sources: checked now as far as it can be, built for each loaded tool list (see `agentWithToolSources`). */
function createAgentWithSources(options: AgentOptions, toolSources: readonly ToolSource[]): Agent {
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
    (sourceTools) => createAgent({ ...options, toolSources: undefined, tools: [...ownTools, ...sourceTools] }),
    `Agent "${config.agentName}" has tool sources that are not loaded yet: \`await agent.loadTools()\` first.`,
    config.instructions,
  );
}

/**
 * An agent made by `createAgent`: its configuration and the agent's own
 * `inspect` option, methods on the prototype. An idle agent holds nothing
 * else (no closures, no copies of its tool list until someone reads `tools`).
 */
class ConfiguredAgent implements Agent, ProvidesParticipantProtocol {
  readonly #config: AgentConfig;
  readonly #inspect: InspectOption | undefined;
  #tools: readonly AnyTool[] | undefined;

  constructor(config: AgentConfig, inspect: InspectOption | undefined) {
    this.#config = config;
    this.#inspect = inspect;
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
    if (runOptions.store !== undefined) return storedAgentRun(this, input, { ...runOptions, store: runOptions.store });
    const config = this.#config;
    const toolMode = normalizeToolMode(runOptions.toolChoice ?? config.toolChoice, [...config.tools.keys()], [...config.addableTools.keys()]);
    const state = validateInitialState(runOptions.state, config.stateSchema);
    const inspect = combineInspectors(this.#inspect, runOptions.inspect, ...globalInspectors());
    const middleware = middlewareList('agent.run(input, { middleware })', runOptions.middleware);
    const budget = runOptions.maxTokens === undefined ? config.tokenBudget : tokenBudget(runOptions.maxTokens, 'agent.run(input, { maxTokens })');
    const inspected = inspect !== undefined;
    const runtime = runtimeFor(config, config.tools.values(), middleware, true, budget, inspected, checkpointsOption(runOptions));
    return startAgentRun(runtime, runInputMessages(input, 'agent.run(input)'), toolMode, runOptions.signal, state, inspect, presetRunId(runOptions));
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
      return storedAgentResume(this, snapshot, { ...resumeOptions, store: resumeOptions.store });
    }
    const config = this.#config;
    const known = new Map([...config.addableTools, ...config.tools]);
    for (const tool of checkedTools('agent.resume(snapshot, { tools })', resumeOptions.tools)) known.set(tool.name, tool);
    const middleware = middlewareList('agent.resume(snapshot, { middleware })', resumeOptions.middleware);
    const inspect = combineInspectors(this.#inspect, resumeOptions.inspect, ...globalInspectors());
    const inspected = inspect !== undefined;
    const checkpoints = checkpointsOption(resumeOptions);
    const restored = restoreRun(
      snapshot,
      config.agentName,
      known,
      (live, budget) => runtimeFor(config, live, middleware, false, budget ?? config.tokenBudget, inspected, checkpoints),
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

  /** How a group chat (or a stored run) runs this agent: from its configuration. */
  [PARTICIPANT_PROTOCOL](): AgentProtocol {
    const config = this.#config;
    return { kind: 'agent', name: config.agentName, config: () => config, toolSources: undefined };
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
  inspected = mirrorToolRules,
  checkpoints?: RunCheckpoints,
): AgentRuntime {
  return agentRuntime(config, {
    liveTools: new LiveToolSet(liveTools),
    middleware: middleware.length === 0 ? config.middleware : [...config.middleware, ...middleware],
    mirrorToolRules,
    inspected,
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
        : sharedToolRules(options.toolRules, [...tools.keys(), ...addableTools.keys()], unnamedToolsOption(options.unnamedTools)),
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

function unnamedToolsOption(policy: UnnamedToolPolicy | undefined): { unnamedTools?: UnnamedToolPolicy } {
  return policy === undefined ? {} : { unnamedTools: policy };
}
