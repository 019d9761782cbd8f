import type { AnyTool } from './defineTool.js';
import { ToolExposureError } from './errors.js';
import { type SharedState, SharedStateError } from './sharedState.js';

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
}

/**
 * A context for executing a tool directly, outside an agent run (tests,
 * scripts): `tools` is `undefined` and `addTools` / `removeTools` throw a
 * `ToolExposureError` that says so; `state` throws unless you pass one.
 *
 * @example
 * await getRecord.execute({ record_id: 'REC-1' }, directToolContext({ toolName: 'get_record' }));
 */
export function directToolContext(
  fields: Partial<Pick<ToolContext, 'callId' | 'toolName' | 'agentName' | 'runId' | 'signal' | 'state'>> = {},
): ToolContext {
  const toolName = fields.toolName ?? 'tool';
  const outside = (helper: string) => () => {
    throw new ToolExposureError(helper, toolName);
  };
  return {
    callId: fields.callId ?? 'direct',
    toolName,
    agentName: fields.agentName ?? 'direct',
    runId: fields.runId ?? 'direct',
    signal: fields.signal ?? new AbortController().signal,
    state: fields.state ?? stateOutsideRun(toolName),
    tools: undefined,
    addTools: outside('addTools'),
    removeTools: outside('removeTools'),
  };
}

function stateOutsideRun(toolName: string): SharedState {
  const fail = (): never => {
    throw new SharedStateError(
      'STATE_NOT_RUNNING',
      `Tool "${toolName}" used ctx.state outside an agent run: there is no shared state. Pass one: directToolContext({ state }).`,
      { toolName },
    );
  };
  return {
    get: fail,
    has: fail,
    set: fail,
    delete: fail,
    update: fail,
    values: fail,
    get changes$() {
      return fail();
    },
  };
}
