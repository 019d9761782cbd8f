import { exportedName } from './redaction/exportedName.js';
import { redactText, redactValue } from './redaction/redactSecrets.js';

/**
 * The base of every error agentchart throws or reports. `code` is stable and
 * safe to switch on; the message says what to do; `details` carries the data
 * needed to act on it. Message and details are redacted (registered
 * credentials, token shapes, secret-named keys): a server that echoes a key
 * in its error body does not put it in results, events or traces.
 *
 * @example
 * try { defineTool({ name: 'bad name', ... }) }
 * catch (e) { if (e instanceof AgentchartError && e.code === 'TOOL_DEFINITION_INVALID') ... }
 */
export class AgentchartError extends Error {
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(redactText(message), options);
    this.name = new.target.name;
    this.code = code;
    this.details = redactValue(details);
  }
}

/** A tool definition that cannot be used (bad name, missing schema, ...). */
export class ToolDefinitionError extends AgentchartError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('TOOL_DEFINITION_INVALID', message, details);
  }
}

/** Two different tools with the same name were given to one agent or run. */
export class DuplicateToolError extends AgentchartError {
  constructor(readonly toolName: string) {
    super('TOOL_NAME_DUPLICATE', `Two different tools are named "${toolName}". Tool names must be unique within an agent: rename one of them.`, {
      toolName,
    });
  }
}

/**
 * `ctx.addTools` / `ctx.removeTools` was called while no agent run was
 * executing the tool (the tool was executed directly), so there is no live
 * tool list to change.
 */
export class ToolExposureError extends AgentchartError {
  constructor(helper: string, toolName: string) {
    super(
      'TOOL_EXPOSURE_OUTSIDE_RUN',
      `ctx.${helper}() was called by tool "${toolName}" outside an agent run. It changes the tool list of the run that ` +
        'executes the tool, and this call has none (the tool was executed directly). Only call it from a tool an agent runs, ' +
        'or check `ctx.tools !== undefined` first.',
      { helper, toolName },
    );
  }
}

/** An option passed to an agentchart function is invalid. */
export class ConfigurationError extends AgentchartError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('CONFIGURATION_INVALID', message, details);
  }
}

/**
 * A model provider failed: the server could not be reached, the model is
 * unknown, the server answered with an HTTP error, or the stream broke off.
 * `code` says which (`MODEL_CONNECTION_FAILED`, `MODEL_NOT_FOUND`,
 * `MODEL_HTTP_ERROR`, `MODEL_STREAM_INTERRUPTED`, `MODEL_RESPONSE_INVALID`,
 * `MODEL_TIMEOUT`, `MODEL_SCRIPT_EXHAUSTED`, `MODEL_REQUEST_INVALID` (a request
 * that cannot be serialised, found before anything is sent),
 * `MODEL_RESPONSE_TOO_LARGE` (a line, reply or error body past its cap),
 * `MODEL_TOOL_CALL_UNREADABLE` (the server could not parse the model's tool
 * call, and asking again did not help)).
 */
export class ModelError extends AgentchartError {
  constructor(
    code:
      | 'MODEL_CONNECTION_FAILED'
      | 'MODEL_NOT_FOUND'
      | 'MODEL_HTTP_ERROR'
      | 'MODEL_STREAM_INTERRUPTED'
      | 'MODEL_RESPONSE_INVALID'
      | 'MODEL_TIMEOUT'
      | 'MODEL_SCRIPT_EXHAUSTED'
      | 'MODEL_REQUEST_INVALID'
      | 'MODEL_RESPONSE_TOO_LARGE'
      | 'MODEL_TOOL_CALL_UNREADABLE',
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, details, options);
  }
}

/** An operation (a model request) was aborted by its signal: model streams end with it. */
export class AbortedError extends AgentchartError {
  constructor(message = 'The operation was aborted.') {
    super('ABORTED', message);
  }
}

/** Turns anything thrown into an Error, keeping Errors as they are. */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  return new Error(typeof thrown === 'string' ? thrown : safeStringify(thrown));
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `approve` / `reject` named a request the run is not waiting for. */
export class ApprovalError extends AgentchartError {
  /** `notWaiting`: what to tell the caller when nothing is pending (where to read what is). */
  constructor(id: string, pending: readonly string[], notWaiting = 'The run is not waiting for approval (read run.pendingApprovals first).') {
    super(
      'APPROVAL_NOT_PENDING',
      // Call ids are the model's: redacted and cut in the message (`details` keeps them whole, to act on).
      `No pending approval request has id "${exportedName(id)}". ${pending.length > 0 ? `Pending: ${pending.map((one) => exportedName(one)).join(', ')}.` : notWaiting}`,
      { id, pending: [...pending] },
    );
  }
}

/**
 * A run could not be persisted (it is not waiting for approval) or a
 * persisted run could not be resumed (wrong format or version, another agent,
 * a tool the resuming agent does not have, a field that is not what the run
 * wrote: `details.path` says where), its signature does not match
 * (`SNAPSHOT_TAMPERED`), or the run was persisted and only its resumed copy
 * may go on (`RUN_PERSISTED`). `code` says which.
 */
export class RunSnapshotError extends AgentchartError {
  constructor(
    code: 'RUN_NOT_PERSISTABLE' | 'RUN_SNAPSHOT_INVALID' | 'RUN_SNAPSHOT_TOOL_MISSING' | 'SNAPSHOT_TAMPERED' | 'RUN_PERSISTED',
    message: string,
    details: Record<string, unknown> = {},
  ) {
    super(code, message, details);
  }
}
