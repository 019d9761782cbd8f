import { ConfigurationError, ToolExposureError } from './errors.js';
import { redactText } from './redaction/redactSecrets.js';
import { type SharedState, SharedStateError } from './sharedState.js';
import type { ToolContext, ToolProgress } from './tool.js';

export type { ToolContext, ToolProgress, ToolsToAdd, ToolsToRemove } from './tool.js';

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
