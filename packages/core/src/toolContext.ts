import type { AnyTool } from './defineTool.js';
import { ToolExposureError } from './errors.js';

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
  /** Aborted when the run is aborted: pass it to anything that waits. */
  readonly signal: AbortSignal;
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
 * `ToolExposureError` that says so.
 *
 * @example
 * await getRecord.execute({ record_id: 'REC-1' }, directToolContext({ toolName: 'get_record' }));
 */
export function directToolContext(
  fields: Partial<Pick<ToolContext, 'callId' | 'toolName' | 'agentName' | 'runId' | 'signal'>> = {},
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
    tools: undefined,
    addTools: outside('addTools'),
    removeTools: outside('removeTools'),
  };
}
