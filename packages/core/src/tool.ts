import type { z } from 'zod';
import type { JsonSchema, ToolSpec } from './chatModel.js';
import type { SharedState } from './sharedState.js';
import type { ToolAnnotations } from './toolAnnotations.js';
import type { ApprovalContext } from './toolApproval.js';
import type { ToolInputAnswer, ToolInputRequest } from './toolInput.js';

/** Any zod schema that describes an object of tool arguments. */
export type ToolParameters = z.ZodType<Record<string, unknown>>;

/** A typed tool, ready to give to an agent. */
export interface Tool<P extends ToolParameters = ToolParameters, R = unknown> {
  readonly name: string;
  readonly description: string;
  /** The arguments' schema (built without a call context when `parameters` is a function). */
  readonly parameters: P;
  /** The schema for one call, when its refinements need the call's context. */
  parametersFor?(ctx: ToolContext): P;
  readonly strict: boolean;
  /** Refused unless it is the only call of its reply (see `ToolDefinition.oneCallAtATime`). */
  readonly oneCallAtATime?: boolean;
  /** The JSON Schema of the parameters, as the model sees it. */
  readonly jsonSchema: JsonSchema;
  /** The tool as sent to a model. */
  readonly spec: ToolSpec;
  /** How calls are approved: `never`, `always`, or `conditional` (decided by `needsApproval`). */
  readonly approval: 'never' | 'always' | 'conditional';
  /** Safe to run again after a crash left a call in doubt (see `ToolDefinition.idempotent`). */
  readonly idempotent?: boolean;
  execute(args: z.output<P>, ctx: ToolContext): R | Promise<R>;
  /** What the tool says about itself (read-only, destructive, idempotent), e.g. from an MCP server. */
  readonly annotations?: ToolAnnotations;
  /** Whether this call (with validated arguments) waits for a human decision. */
  needsApproval(args: z.output<P>, ctx: ApprovalContext): boolean | Promise<boolean>;
}

/** A tool whose argument and result types are not known here. */
export type AnyTool = Tool<ToolParameters, unknown>;

/**
 * A tool's report of how far it got (`ctx.reportProgress`), as MCP progress
 * notifications carry it: `progress` grows with each report; `total` is what
 * it counts toward, when known; `message` says what is happening now.
 */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** What `ctx.addTools` takes: one tool or a list. */
export type ToolsToAdd = AnyTool | readonly AnyTool[];

/** What `ctx.removeTools` takes: names, tools, or a list of either. */
export type ToolsToRemove = string | AnyTool | readonly (string | AnyTool)[];

/**
 * What a tool receives beside its arguments. The model never sees it.
 *
 * @example
 * execute: async ({ url }, ctx) => fetch(url, { signal: ctx.signal })
 */
export interface ToolContext {
  /** The id of the call being executed. */
  readonly callId: string;
  /** The name of the tool being executed. */
  readonly toolName: string;
  /** The agent that runs the tool. */
  readonly agentName: string;
  /** The run the call belongs to. */
  readonly runId: string;
  /**
   * The same on every attempt of this call, across crashes and resumes
   * (`<runId>:<callId>`): pass it to a service that deduplicates requests
   * (a payment API's idempotency key). `undefined` outside an agent run.
   */
  readonly idempotencyKey?: string;
  /** Aborted when the run is aborted: pass it to anything that waits. */
  readonly signal: AbortSignal;
  /** The run's (or group chat's) shared state; see `SharedState`. */
  readonly state: SharedState;
  /**
   * The run's live tool list, as it is now (a copy: change it with
   * `addTools` / `removeTools`). `undefined` when the tool is executed outside
   * an agent run.
   */
  readonly tools: readonly AnyTool[] | undefined;
  /**
   * Adds tools to the run's live list; the model sees them from its next call
   * on. Re-adding the same tool object does nothing; a different tool with a
   * name already present throws `DuplicateToolError`, and a list is
   * all-or-nothing. Throws `ToolExposureError` outside an agent run.
   *
   * @example
   * execute: (_args, ctx) => { ctx.addTools([factorial, fibonacci]); return 'Loaded.'; }
   */
  addTools(tools: ToolsToAdd): void;
  /**
   * Removes tools (by name or object) from the run's live list, from the
   * model's next call on. Names not in the list are ignored. Throws
   * `ToolExposureError` outside an agent run.
   *
   * @example
   * execute: (_args, ctx) => { ctx.removeTools('unlock'); return 'Locked.'; }
   */
  removeTools(tools: ToolsToRemove): void;
  /**
   * Reports how far the call got while it runs: the run emits a
   * `tool.progress` event (visible in `events$`, and in a group chat's as an
   * `agent.event`). MCP tools report their server's progress notifications
   * this way. Reports after the call returned are dropped; outside an agent
   * run it does nothing. Throws a `ConfigurationError` for a `progress` or
   * `total` that is not a finite number.
   *
   * @example
   * execute: async ({ files }, ctx) => { for (const [i, file] of files.entries()) { await upload(file); ctx.reportProgress({ progress: i + 1, total: files.length, message: file }); } }
   */
  reportProgress(progress: ToolProgress): void;
  /**
   * Asks the person whose run it is and waits for their answer: the run
   * emits `input.requested` (with an `id`, the message and the schema), the
   * person answers with `run.answer(id, answer)` (checked against the
   * request), and the run emits `input.answered`. An aborted run resolves it
   * with `cancel`. Absent where nobody can answer (outside a run).
   *
   * @example
   * const answer = await ctx.requestInput?.({ message: 'Which branch?', requestedSchema: { type: 'object', properties: { branch: { type: 'string' } } } });
   */
  requestInput?(request: ToolInputRequest): Promise<ToolInputAnswer>;
}
