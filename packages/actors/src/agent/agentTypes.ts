import type {
  AnyTool,
  ChatModel,
  CompiledToolRules,
  FunctionMiddleware,
  Message,
  PriceTable,
  RunStore,
  StateRecord,
  ToolChoice,
  ToolMode,
  ToolRuleInput,
  TokenBudgetOption,
  UnnamedToolPolicy,
} from '@agentchart/core';
import type { z } from 'zod';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { AgentRuntime } from './machine/agentContext.js';
import type { AgentRun } from './run/agentRun.js';
import type { SnapshotKey } from './run/snapshotSignature.js';
import type { ToolSource } from './tools/toolSource.js';

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
export interface ResumeOptions extends Pick<RunOptions, 'signal' | 'owner' | 'leaseMs'> {
  /** Run-level middleware for the rest of the run (it is code, so it is not persisted). */
  middleware?: readonly FunctionMiddleware[];
  /** Tools the run had added (`ctx.addTools`) that the agent does not have itself. */
  tools?: readonly AnyTool[];
  /** Observes the resumed run (beside the agent's own `inspect`). */
  inspect?: InspectOption;
  /** Where the run is kept, for `agent.resume(runId, { store })`. */
  store?: RunStore;
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
