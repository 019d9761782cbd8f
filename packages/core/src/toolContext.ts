import type { AnyTool } from './defineTool.js';
import { ConfigurationError, ToolExposureError } from './errors.js';
import { redactText } from './redaction/redactSecrets.js';
import { type SharedState, SharedStateError } from './sharedState.js';
import type { ToolInputAnswer, ToolInputRequest } from './toolInput.js';

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

/** Longest `message` a progress report keeps (longer ones are cut). */
const MAX_PROGRESS_MESSAGE = 1000;

/**
 * A progress report checked and trimmed: `progress` and `total` finite
 * numbers (a `ConfigurationError` otherwise), `message` a string of at most
 * 1,000 characters, with credentials in it redacted.
 *
 * @example
 * checkToolProgress({ progress: 2, total: 5 }, 'upload'); // { progress: 2, total: 5 }
 */
export function checkToolProgress(report: ToolProgress, toolName: string): ToolProgress {
  const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
  if (typeof report !== 'object' || report === null || !finite(report.progress) || (report.total !== undefined && !finite(report.total))) {
    throw new ConfigurationError(
      `Tool "${toolName}" called ctx.reportProgress with ${safeJson(report)}: give { progress: <number>, total?: <number>, message?: <string> } with finite numbers.`,
      { toolName },
    );
  }
  const checked: ToolProgress = { progress: report.progress };
  if (report.total !== undefined) checked.total = report.total;
  if (report.message !== undefined) checked.message = redactText(String(report.message).slice(0, MAX_PROGRESS_MESSAGE));
  return checked;
}

function safeJson(value: unknown): string {
  try {
    return String(JSON.stringify(value)).slice(0, 200);
  } catch {
    return String(value);
  }
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
    // Outside a run nobody listens: the report is checked, then dropped.
    reportProgress: (report) => void checkToolProgress(report, toolName),
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
