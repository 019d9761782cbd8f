import { AgentchartError } from './errors.js';

/**
 * An error meant for the model: thrown from a tool's `execute` (or from a
 * refinement of its parameters), its message is exactly the tool result the
 * model sees, e.g. "Please call QueryDatabase first." Anything else a tool
 * throws is an unexpected crash and is reported as a failure.
 *
 * @example
 * execute: (args, ctx) => {
 *   if (ctx.state.get('context') === undefined) throw new ToolError('Please call QueryDatabase first.');
 *   ...
 * }
 */
export class ToolError extends AgentchartError {
  constructor(message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super('TOOL_ERROR', message, details, options);
  }
}

/** True for errors whose message is meant for the model as is. */
export function isToolError(error: unknown): error is ToolError {
  return error instanceof ToolError;
}
